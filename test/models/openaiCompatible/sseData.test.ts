import { EventSourceParserStream } from "@ai-sdk/provider-utils"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { SseDataSplitter } from "../../../src/models/openaiCompatible/sseData.ts"

const splitterData = (chunks: ReadonlyArray<Uint8Array>): Array<string> => {
  const events: Array<string> = []
  const splitter = new SseDataSplitter((data) => events.push(data))
  for (const chunk of chunks) splitter.push(Buffer.from(chunk))
  return events
}

/** What the AI SDK reads from the same chunks: TextDecoderStream, then EventSourceParserStream. */
const sdkData = async (chunks: ReadonlyArray<Uint8Array>): Promise<Array<string>> => {
  const events: Array<string> = []
  const bytes = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    }
  })
  const parsed = bytes
    .pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .pipeThrough(new EventSourceParserStream())
  for await (const event of parsed) events.push(event.data)
  return events
}

const splitAt = (bytes: Uint8Array, cuts: ReadonlyArray<number>): Array<Uint8Array> => {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const chunks: Array<Uint8Array> = []
  let from = 0
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, point))
    from = point
  }
  return chunks
}

// Text without line ends: ASCII, two-, three- and four-byte UTF-8, and anything else.
const value = fc.string({
  unit: fc.oneof(
    fc.constantFrom("a", " ", ":", "{", "\"", "é", "€", "😀", "\u0000", "data"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 })
  ),
  maxLength: 12
}).map((text) => text.replace(/[\r\n]/g, ""))

const line = fc.oneof(
  { weight: 4, arbitrary: value.map((text) => `data: ${text}`) },
  value.map((text) => `data:${text}`),
  fc.constant("data"),
  value.map((text) => `:${text}`),
  value.map((text) => `event: ${text}`),
  value.map((text) => `id: ${text}`),
  fc.constantFrom("retry: 10", "retry: x", "datum: 1", "data : 2"),
  value
)

const lineEnd = fc.constantFrom("\n", "\r\n", "\r")

/** Events (lines, then a blank line), each line with its own line end; maybe a BOM, maybe a last event left open. */
const sseText = fc.record({
  bom: fc.boolean(),
  events: fc.array(fc.array(fc.tuple(line, lineEnd), { maxLength: 4 }), { maxLength: 6 }),
  ends: fc.array(lineEnd, { minLength: 6, maxLength: 6 }),
  open: fc.array(fc.tuple(line, lineEnd), { maxLength: 2 })
}).map(({ bom, events, ends, open }) =>
  (bom ? "\uFEFF" : "") +
  events.map((lines, i) => lines.map(([text, end]) => text + end).join("") + ends[i]).join("") +
  open.map(([text, end]) => text + end).join("")
)

describe("SseDataSplitter", () => {
  it("yields the SDK's events for any split of the bytes into chunks, inside characters and CRLFs too", async () => {
    await fc.assert(
      fc.asyncProperty(sseText, fc.array(fc.nat(), { maxLength: 24 }), async (text, cuts) => {
        const bytes = new TextEncoder().encode(text)
        const chunks = splitAt(bytes, cuts)
        const whole = splitterData([bytes])
        expect(splitterData(chunks)).toEqual(whole)
        expect(whole).toEqual(await sdkData(chunks))
      }),
      { numRuns: 500 }
    )
  })

  it("every single-byte split of an answer with CRLFs, a BOM and four-byte characters", async () => {
    const text = "\uFEFFdata: {\"a\":\"😀é\"}\r\n\r\n: ping\r\ndata: x\r\ndata: y\r\n\r\ndata: [DONE]\r\n\r\n"
    const bytes = new TextEncoder().encode(text)
    const oneByOne = [...bytes].map((byte) => Uint8Array.of(byte))
    expect(splitterData(oneByOne)).toEqual(["{\"a\":\"😀é\"}", "x\ny", "[DONE]"])
    expect(await sdkData(oneByOne)).toEqual(["{\"a\":\"😀é\"}", "x\ny", "[DONE]"])
  })

  it("decodes bytes that are not UTF-8 as the SDK's TextDecoder does", async () => {
    const bytes = Uint8Array.of(...Buffer.from("data: "), 0xe2, 0x82, 0xff, 0x41, 0xc3, ...Buffer.from("\n\n"))
    expect(splitterData([bytes])).toEqual(await sdkData([bytes]))
  })

  it("a CR that ends the stream ends no line; an event never closed is dropped", async () => {
    const cases: ReadonlyArray<[Array<string>, Array<string>]> = [
      [["data: a\r\rdata: b\n\r"], ["a"]],
      [["data: a\r", "\r"], []],
      [["data: a\r", "\r", "x"], []],
      [["data: a\r", "\r", "x\n"], ["a"]]
    ]
    for (const [texts, expected] of cases) {
      const chunks = texts.map((text) => new TextEncoder().encode(text))
      expect(splitterData(chunks)).toEqual(expected)
      expect(await sdkData(chunks)).toEqual(expected)
    }
  })
})
