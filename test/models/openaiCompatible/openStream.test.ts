import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { nodeFetch } from "../../../src/models/nodeFetch.ts"
import { httpAgents } from "../../../src/net/httpAgents.ts"
import { comparable, type Pair, startPair, streamOutcome, userPrompt } from "./pair.ts"

const call = { prompt: userPrompt("Hi") }

const readAll = async (stream: { read: (onPart: (part: LanguageModelV4StreamPart) => void) => Promise<void> }) => {
  const parts: Array<LanguageModelV4StreamPart> = []
  await stream.read((part) => parts.push(part))
  return parts
}

describe("openStream and read", () => {
  let pair: Pair
  beforeEach(async () => {
    pair = await startPair({ fetch: nodeFetch })
  })
  afterEach(() => pair.close())

  const same = (actual: unknown, expected: unknown) => {
    const upstreams = [pair.sdkUpstream, pair.myUpstream]
    expect(comparable(actual, upstreams)).toEqual(comparable(expected, upstreams))
  }

  for (const includeRawChunks of [false, true]) {
    it(`delivers the parts the SDK's doStream streams (raw chunks ${includeRawChunks ? "included" : "left out"})`, async () => {
      const reply = {
        type: "tool-calls",
        text: "Checking both.",
        calls: [{ name: "weather", arguments: { city: "Paris" } }, { name: "weather", arguments: { city: "Oslo" } }],
        chunkDelayMs: 2
      } as const
      pair.enqueue(reply)
      const expected = await streamOutcome(pair.sdk, { ...call, includeRawChunks })
      const stream = await pair.mine.openStream({ ...call, includeRawChunks })
      const parts = await readAll(stream)
      same({ parts, request: stream.request, response: stream.response }, expected)
      expect(parts.filter((part) => part.type === "tool-call")).toHaveLength(2)
    })
  }

  it("rejects as doStream does for an HTTP error status", async () => {
    pair.enqueue({ type: "error", status: 429, retryAfter: 3 })
    const expected = await streamOutcome(pair.sdk, call)
    const rejected = await pair.mine.openStream(call).then(() => undefined, (error: unknown) => error)
    same({ parts: [], rejected }, expected)
    expect(rejected).toMatchObject({ statusCode: 429, isRetryable: true, responseHeaders: { "retry-after": "3" } })
  })

  it("rejects with what onPart threw, and destroys the request", async () => {
    pair.myUpstream.enqueue({ type: "text", text: "one two three four five six", chunkDelayMs: 20 })
    const stream = await pair.mine.openStream(call)
    const thrown = new Error("the consumer gave up")
    const seen: Array<string> = []
    const read = stream.read((part) => {
      seen.push(part.type)
      if (part.type === "text-delta") throw thrown
    })
    await expect(read).rejects.toBe(thrown)
    expect(seen).toEqual(["stream-start", "response-metadata", "text-start", "text-delta"])
    expect((await pair.myUpstream.waitForAbort()).body.stream).toBe(true)
  })

  it("rejects with the abort reason mid-stream, and destroys the request", async () => {
    pair.myUpstream.enqueue({ type: "hang" })
    const controller = new AbortController()
    const stream = await pair.mine.openStream({ ...call, abortSignal: controller.signal })
    const seen: Array<string> = []
    const read = stream.read((part) => seen.push(part.type))
    setTimeout(() => controller.abort(), 20)
    await expect(read).rejects.toMatchObject({ name: "AbortError" })
    expect(seen).toEqual(["stream-start"])
    await pair.myUpstream.waitForAbort()
  })

  it("an abort before read: the request is destroyed at once, read rejects", async () => {
    pair.myUpstream.enqueue({ type: "hang" })
    const controller = new AbortController()
    const stream = await pair.mine.openStream({ ...call, abortSignal: controller.signal })
    controller.abort(new Error("no longer needed"))
    await pair.myUpstream.waitForAbort()
    const seen: Array<string> = []
    await expect(stream.read((part) => seen.push(part.type))).rejects.toMatchObject({
      message: "Failed to process successful response",
      cause: { message: "no longer needed" }
    })
    expect(seen).toEqual([])
  })

  it("a cut connection before read: read rejects as the SDK's stream errors", async () => {
    pair.enqueue({ type: "broken", afterChunks: 2 })
    const expected = await streamOutcome(pair.sdk, call)
    const stream = await pair.mine.openStream(call)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const streamError = await stream.read(() => undefined).then(() => undefined, (error: unknown) => error)
    same(streamError, expected.streamError)
    expect(streamError).toMatchObject({ isRetryable: true })
  })

  it("may be read once", async () => {
    pair.myUpstream.enqueue({ type: "text", text: "hi" })
    const stream = await pair.mine.openStream(call)
    const first = readAll(stream)
    await expect(stream.read(() => undefined)).rejects.toThrow("PartStream.read may be called once")
    expect((await first).at(-1)?.type).toBe("finish")
  })

  it("hands the connection back to the keep-alive pool, and the next call reuses it", async () => {
    pair.myUpstream.enqueue({ type: "text", text: "a" }, { type: "text", text: "b" })
    const port = new URL(pair.myUpstream.url).port
    const pooled = async () => {
      await new Promise((resolve) => setImmediate(resolve))
      return Object.entries(httpAgents["http:"].freeSockets)
        .filter(([name]) => name.includes(`:${port}:`))
        .flatMap(([, sockets]) => sockets ?? [])
    }
    await readAll(await pair.mine.openStream(call))
    const [first] = await pooled()
    expect(first).toBeDefined()
    await readAll(await pair.mine.openStream(call))
    expect(await pooled()).toEqual([first])
  })
})
