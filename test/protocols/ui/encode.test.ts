import { describe, expect, it } from "vitest"
import { DONE, encodeChunk, encodeFailure } from "../../../src/protocols/ui/encode.ts"

describe("SSE encoding (docs/DESIGN.md §3.1)", () => {
  it("sends plain data lines for message chunks", () => {
    expect(encodeChunk({ type: "text-delta", id: "t", delta: "hi" })).toBe(
      `data: {"type":"text-delta","id":"t","delta":"hi"}\n\n`
    )
  })

  it("names tool chunks `tool`", () => {
    const chunk = { type: "tool-input-available", toolCallId: "c", toolName: "bash", input: {}, dynamic: true } as const
    expect(encodeChunk(chunk)).toBe(`event: tool\ndata: ${JSON.stringify(chunk)}\n\n`)
  })

  it("ends a failed stream with an error chunk, a finish chunk and [DONE]", () => {
    expect(encodeFailure("boom")).toBe(
      `data: {"type":"error","errorText":"boom"}\n\n` +
        `data: {"type":"finish","finishReason":"error",` +
        `"messageMetadata":{"finished":false,"finishReason":"error","usage":{}}}\n\n${DONE}`
    )
  })
})
