import { describe, expect, it } from "vitest"
import { routeLabel } from "../../src/observability/routeLabel.ts"

describe("routeLabel", () => {
  it("names each known route by its pattern, never by the ids in its path", () => {
    expect(routeLabel("/api/v1/chat")).toBe("/api/v1/chat")
    expect(routeLabel("/api/v1/sandboxes/sbx_123")).toBe("/api/v1/sandboxes/:id")
    expect(routeLabel("/admin/v1/keys/key_42/limits")).toBe("/admin/v1")
    expect(routeLabel("/admin/v1")).toBe("/admin/v1")
    expect(routeLabel("/console")).toBe("/console")
    expect(routeLabel("/console/assets/app-1a2b.js")).toBe("/console")
    expect(routeLabel("/mcp")).toBe("/mcp")
  })

  it("puts everything else under other", () => {
    expect(routeLabel("/api/v1/admin/keys")).toBe("other")
    expect(routeLabel("/administrator")).toBe("other")
    expect(routeLabel("/no/such/path/42")).toBe("other")
  })
})
