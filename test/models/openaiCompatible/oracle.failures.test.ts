import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { nodeFetch } from "../../../src/models/nodeFetch.ts"
import { OpenAICompatibleChatModel } from "../../../src/models/openaiCompatible/OpenAICompatibleChatModel.ts"
import { API_KEY, comparable, generateOutcome, type Pair, startPair, streamOutcome, userPrompt } from "./pair.ts"

/** A port nothing listens on. */
const closedPort = async (): Promise<number> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Reads a stream, aborting once `abortOn` says so; its parts and how it ended. */
const readAborting = async (
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions,
  controller: AbortController,
  abortOn: (part: LanguageModelV4StreamPart) => boolean,
  reason?: unknown
) => {
  const { stream } = await model.doStream({ ...options, abortSignal: controller.signal })
  const parts: Array<LanguageModelV4StreamPart> = []
  try {
    for await (const part of stream) {
      parts.push(part)
      if (abortOn(part)) controller.abort(reason)
    }
  } catch (error) {
    return { parts, error }
  }
  return { parts }
}

const fetches = [["parley's nodeFetch", nodeFetch, Infinity], ["the global fetch", undefined, 1]] as const

describe.each(fetches)("failures equal the AI SDK model's over %s", (_, fetch, causeDepth) => {
  let pair: Pair
  beforeEach(async () => {
    pair = await startPair({ fetch })
  })
  afterEach(() => pair.close())

  const same = (actual: unknown, expected: unknown) => {
    const upstreams = [pair.sdkUpstream, pair.myUpstream]
    expect(comparable(actual, upstreams, causeDepth)).toEqual(comparable(expected, upstreams, causeDepth))
  }

  it("a connection that cannot be made: retryable 'Cannot connect to API'", async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`
    const sdk = createOpenAICompatible({
      name: "local",
      baseURL,
      includeUsage: true,
      apiKey: API_KEY,
      ...(fetch ? { fetch } : {})
    })
      .chatModel("demo")
    const mine = new OpenAICompatibleChatModel({ provider: "local", baseURL, apiKey: API_KEY, modelId: "demo" })
    const call = { prompt: userPrompt("Hi") }
    const actual = await streamOutcome(mine, call)
    same(actual, await streamOutcome(sdk, call))
    expect(actual.rejected).toMatchObject({
      isRetryable: true,
      message: expect.stringMatching(/^Cannot connect to API: /)
    })
    same(await generateOutcome(mine, call), await generateOutcome(sdk, call))
  })

  for (
    const [name, reason] of [["the default reason", undefined], ["a reason of its own", new Error("stop now")]] as const
  ) {
    it(`an abort before the response, with ${name}: rejects with the reason, the upstream sees it`, async () => {
      pair.enqueue({ type: "text", text: "late", delayMs: 10_000 }, { type: "text", text: "late", delayMs: 10_000 })
      const outcomes = []
      for (const model of [pair.sdk, pair.mine]) {
        const controller = new AbortController()
        setTimeout(() => controller.abort(reason), 30)
        outcomes.push(await streamOutcome(model, { prompt: userPrompt("Hi"), abortSignal: controller.signal }))
      }
      same(outcomes[1], outcomes[0])
      if (reason === undefined) expect(outcomes[1]!.rejected).toMatchObject({ name: "AbortError" })
      else expect(outcomes[1]!.rejected).toBe(reason)
      await Promise.all([pair.sdkUpstream.waitForAbort(), pair.myUpstream.waitForAbort()])
    })

    it(`an abort mid-stream, with ${name}: the stream errors as the SDK's, the upstream sees it`, async () => {
      const reply = { type: "text", text: "one two three four five six seven eight", chunkDelayMs: 20 } as const
      pair.enqueue(reply, reply)
      const firstDelta = (part: LanguageModelV4StreamPart) => part.type === "text-delta"
      const call = { prompt: userPrompt("Hi") }
      const expected = await readAborting(pair.sdk, call, new AbortController(), firstDelta, reason)
      const actual = await readAborting(pair.mine, call, new AbortController(), firstDelta, reason)
      same(actual, expected)
      expect(actual.parts.map((part) => part.type)).toEqual([
        "stream-start",
        "response-metadata",
        "text-start",
        "text-delta"
      ])
      expect(actual.error).toBeDefined()
      await Promise.all([pair.sdkUpstream.waitForAbort(), pair.myUpstream.waitForAbort()])
    })
  }

  it("a signal aborted before the call", async () => {
    const call = { prompt: userPrompt("Hi"), abortSignal: AbortSignal.abort() }
    const actual = await streamOutcome(pair.mine, call)
    same(actual, await streamOutcome(pair.sdk, call))
    expect(actual.rejected).toMatchObject({ name: "AbortError" })
    expect(pair.myUpstream.requests).toHaveLength(0)
  })

  it("doGenerate: an abort while the answer is awaited", async () => {
    pair.enqueue({ type: "hang" }, { type: "hang" })
    const outcomes = []
    for (const [model, upstream] of [[pair.sdk, pair.sdkUpstream], [pair.mine, pair.myUpstream]] as const) {
      const controller = new AbortController()
      // Once the upstream has the request (a fixed delay lost that race on a loaded machine: nothing to abort upstream).
      const seen = upstream.requests.length
      void vi.waitFor(() => expect(upstream.requests.length).toBeGreaterThan(seen), { timeout: 5_000 })
        .then(() => controller.abort())
      outcomes.push(await generateOutcome(model, { prompt: userPrompt("Hi"), abortSignal: controller.signal }))
    }
    same(outcomes[1], outcomes[0])
    expect(outcomes[1]).toMatchObject({ rejected: { name: "AbortError" } })
    await Promise.all([pair.sdkUpstream.waitForAbort(), pair.myUpstream.waitForAbort()])
  })

  it("doGenerate: a body broken off", async () => {
    pair.enqueue({ type: "broken", afterChunks: 0 }, { type: "broken", afterChunks: 0 })
    const call = { prompt: userPrompt("Hi") }
    const actual = await generateOutcome(pair.mine, call)
    same(actual, await generateOutcome(pair.sdk, call))
    expect(actual).toMatchObject({ rejected: { isRetryable: true, message: "Failed to process successful response" } })
  })

  it("the stream cancelled by its reader: the request is destroyed", async () => {
    const reply = { type: "text", text: "one two three four five six", chunkDelayMs: 20 } as const
    pair.enqueue(reply, reply)
    for (const model of [pair.sdk, pair.mine]) {
      const { stream } = await model.doStream({ prompt: userPrompt("Hi") })
      const reader = stream.getReader()
      await reader.read()
      await reader.cancel("enough")
    }
    await Promise.all([pair.sdkUpstream.waitForAbort(), pair.myUpstream.waitForAbort()])
  })
})
