import { describe, expect, it } from "vitest"
import { ServerShuttingDown } from "../../../src/http/requestErrors.ts"
import { ProviderUnavailable } from "../../../src/models/ProviderFailure.ts"
import { encodeFailure } from "../../../src/protocols/ui/encode.ts"
import { uiEncoding, uiProtocol } from "../../../src/protocols/ui/protocol.ts"

// The error table's words, as the spec's error bodies say them (docs/DESIGN.md §3.3, §3.8, §14).
describe("the ui protocol words failures in a stream as its error bodies do", () => {
  it("a provider failure after the first chunk: an error chunk, the run's finish follows", () => {
    const failure = new ProviderUnavailable({ provider: "mock", message: "mock could not be reached" })
    expect(uiEncoding.failure(failure)).toBe(
      `data: {"type":"error","errorText":"The model provider \\"mock\\" is unavailable right now. Retry later."}\n\n`
    )
  })

  it("a stream broken off outside the run ends with error, finish and [DONE]", () => {
    const shutdown = new ServerShuttingDown()
    expect(uiEncoding.broken(shutdown)).toBe(encodeFailure(shutdown.message))
    expect(uiEncoding.broken(undefined)).toBe(encodeFailure("An unexpected error occurred"))
  })

  it("error bodies are the spec's, and nothing internal for the unexpected", () => {
    expect(uiProtocol.errorBody(new ServerShuttingDown(), "c1", undefined)).toMatchObject({
      status: 503,
      body: { correlationId: "c1" }
    })
    expect(uiProtocol.errorBody(undefined, "c1", undefined)).toMatchObject({
      status: 500,
      body: { error: "InternalServerError", message: "An unexpected error occurred", correlationId: "c1" }
    })
  })
})
