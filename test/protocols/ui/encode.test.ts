import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema
} from "ai"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { DONE, encodeChunk, encodeFailure } from "../../../src/protocols/ui/encode.ts"

/** The chunks the AI SDK's own client parser (what `DefaultChatTransport` reads a response with) finds in `sse`. */
const parsed = async (sse: string): Promise<Array<UIMessageChunk>> => {
  const chunks: Array<UIMessageChunk> = []
  const events = parseJsonEventStream({ stream: new Response(sse).body!, schema: uiMessageChunkSchema })
  for await (const result of events) {
    if (!result.success) throw result.error
    chunks.push(result.value)
  }
  return chunks
}

/** The message `readUIMessageStream` builds from those chunks, and the errors it reports. */
const read = async (chunks: ReadonlyArray<UIMessageChunk>) => {
  const errors: Array<string> = []
  let message: UIMessage | undefined
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    }
  })
  for await (const snapshot of readUIMessageStream({ stream, onError: (error) => errors.push(String(error)) })) {
    message = snapshot
  }
  return { message, errors }
}

describe("SSE encoding (docs/DESIGN.md §3.1), read back by the AI SDK's parser", () => {
  it("sends message chunks as plain data lines the SDK parses back to the same chunk", async () => {
    const chunk = { type: "text-delta", id: "t", delta: "hi" } as const
    expect(encodeChunk(chunk)).toMatch(/^data: /)
    expect(await parsed(encodeChunk(chunk))).toEqual([chunk])
  })

  it("parses any text delta back as it was sent", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme" }), fc.string({ minLength: 1 }), async (delta, id) => {
        const chunk = { type: "text-delta", id, delta } as const
        expect(await parsed(encodeChunk(chunk))).toEqual([chunk])
      }),
      { numRuns: 200 }
    )
  })

  it("names tool chunks `tool`, which the SDK's parser ignores", async () => {
    const chunk = { type: "tool-input-available", toolCallId: "c", toolName: "bash", input: {}, dynamic: true } as const
    expect(encodeChunk(chunk)).toMatch(/^event: tool\ndata: /)
    expect(await parsed(encodeChunk(chunk))).toEqual([chunk])
  })

  it("ends a failed stream with an error chunk, a finish chunk and [DONE]", async () => {
    const sse = encodeFailure("boom")
    expect(sse.endsWith(DONE)).toBe(true)
    const chunks = await parsed(sse)
    expect(chunks).toEqual([
      { type: "error", errorText: "boom" },
      {
        type: "finish",
        finishReason: "error",
        messageMetadata: { finished: false, finishReason: "error", usage: {} }
      }
    ])
    // The SDK's reader reports the error and ends the message with the metadata that says it did not finish.
    const { message, errors } = await read([{ type: "start", messageId: "m" }, ...chunks])
    expect(errors).toEqual(["Error: boom"])
    expect(message?.metadata).toEqual({ finished: false, finishReason: "error", usage: {} })
  })
})
