import { describe, expect, it } from "vitest"
import { protocolOfRoute, routeLabel } from "../../src/observability/routeLabel.ts"

describe("routeLabel", () => {
  it("names each known route by its pattern, never by the ids in its path", () => {
    expect(routeLabel("/api/v1/chat")).toBe("/api/v1/chat")
    expect(routeLabel("/api/v1/sandboxes/sbx_123")).toBe("/api/v1/sandboxes/:id")
    expect(routeLabel("/admin/v1/keys/key_42/limits")).toBe("/admin/v1")
    expect(routeLabel("/admin/v1")).toBe("/admin/v1")
    expect(routeLabel("/console")).toBe("/console")
    expect(routeLabel("/console/assets/app-1a2b.js")).toBe("/console")
    expect(routeLabel("/mcp")).toBe("/mcp")
    expect(routeLabel("/v1/models")).toBe("/v1/models")
    // A model id holds a `/` of its own, raw or encoded.
    expect(routeLabel("/v1/models/openai/gpt-5-mini")).toBe("/v1/models/:model")
    expect(routeLabel("/v1/models/hub%2Forg%2Fmodel-a")).toBe("/v1/models/:model")
  })

  it("puts everything else under other", () => {
    expect(routeLabel("/api/v1/admin/keys")).toBe("other")
    expect(routeLabel("/administrator")).toBe("other")
    expect(routeLabel("/no/such/path/42")).toBe("other")
    expect(routeLabel("/v1/modelsx")).toBe("other")
    expect(routeLabel("/v1/messages/batches")).toBe("other")
    expect(routeLabel("/v1/responses/resp_1")).toBe("other")
  })

  it("tells the protocol of a protocol's route, and none of any other (docs/DESIGN.md §14)", () => {
    expect(protocolOfRoute(routeLabel("/api/v1/chat"))).toBe("ui")
    expect(protocolOfRoute(routeLabel("/mcp"))).toBe("mcp")
    expect(protocolOfRoute(routeLabel("/v1/chat/completions"))).toBe("chat-completions")
    expect(protocolOfRoute(routeLabel("/v1/responses"))).toBe("responses")
    expect(protocolOfRoute(routeLabel("/v1/messages"))).toBe("messages")
    expect(protocolOfRoute(routeLabel("/v1/messages/count_tokens"))).toBe("messages")
    for (const path of ["/admin/v1/requests", "/api/v1/models", "/v1/models", "/health", "/no/such/path"]) {
      expect(protocolOfRoute(routeLabel(path))).toBeUndefined()
    }
  })
})
