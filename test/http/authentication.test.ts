import { describe, expect, it } from "vitest"
import { requiresKey } from "../../src/http/authentication.ts"

describe("requiresKey", () => {
  it.each([
    "/api/v1/models",
    "/api/v1/chat?stream=1",
    "//api//v1/models",
    "/API/v1/models",
    "/%61pi/v1/models",
    "/api/v1/%E0%A4%A"
  ])("asks for a key on %s", (url) => {
    expect(requiresKey(url)).toBe(true)
  })

  it.each(["/health", "/openapi.json", "/docs", "/apix", "/health?api/", "/nope/api/v1/models"])(
    "leaves %s open",
    (url) => {
      expect(requiresKey(url)).toBe(false)
    }
  )
})
