import type { LanguageModelV4CallOptions } from "@ai-sdk/provider"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { nodeFetch } from "../../../src/models/nodeFetch.ts"
import { oddStreams } from "./oddStreams.ts"
import {
  comparable,
  generateOutcome,
  type Pair,
  startPair,
  type StreamOutcome,
  streamOutcome,
  userPrompt
} from "./pair.ts"
import { answers } from "./streamScenarios.ts"

// Under the global fetch, network errors are undici's: compared down to the fetch's own error.
const fetches = [["parley's nodeFetch", nodeFetch, Infinity], ["the global fetch", undefined, 1]] as const

type Usage = { inputTokens: Record<string, unknown>; outputTokens: Record<string, unknown>; raw?: any }

/**
 * The SDK's outcome as parley's must be: the same, but for the cached and
 * reasoning counts the provider did not send, which parley leaves undefined
 * where the SDK says 0 (docs/DESIGN.md §3.17).
 */
const withUnsentCountsUndefined = (outcome: StreamOutcome): StreamOutcome => ({
  ...outcome,
  parts: outcome.parts.map((part) => {
    const { type, usage } = part as { type: string; usage?: Usage }
    if (type !== "finish" || usage?.raw == null) return part
    const inputTokens = usage.raw.prompt_tokens_details?.cached_tokens == null
      ? { ...usage.inputTokens, cacheRead: undefined }
      : usage.inputTokens
    const outputTokens = usage.raw.completion_tokens_details?.reasoning_tokens == null
      ? { ...usage.outputTokens, reasoning: undefined }
      : usage.outputTokens
    return { ...(part as object), usage: { ...usage, inputTokens, outputTokens } }
  })
})

describe.each(fetches)("doStream equals the AI SDK model's over %s", (_, fetch, causeDepth) => {
  let pair: Pair
  beforeEach(async () => {
    pair = await startPair({ fetch })
  })
  afterEach(() => pair.close())

  const both = async (options: Partial<LanguageModelV4CallOptions>) => {
    const call: LanguageModelV4CallOptions = { prompt: userPrompt("Hi"), ...options }
    const expected = withUnsentCountsUndefined(await streamOutcome(pair.sdk, call))
    const actual = await streamOutcome(pair.mine, call)
    const upstreams = [pair.sdkUpstream, pair.myUpstream]
    return {
      expected,
      actual,
      same: () => expect(comparable(actual, upstreams, causeDepth)).toEqual(comparable(expected, upstreams, causeDepth))
    }
  }

  for (const scenario of [...answers, ...oddStreams]) {
    it(scenario.name, async () => {
      pair.enqueue(...scenario.replies)
      const { actual, same } = await both(scenario.options ?? {})
      scenario.check(actual)
      same()
      expect(pair.myUpstream.requests.map((request) => request.body))
        .toEqual(pair.sdkUpstream.requests.map((request) => request.body))
    })
  }

  it("sends the same headers", async () => {
    pair.enqueue({ type: "text", text: "a" }, { type: "text", text: "a" })
    await both({ headers: { "x-trace": "t-1", "User-Agent": "parley-test", "x-unset": undefined } })
    await both({})
    const headers = (upstream: typeof pair.myUpstream) =>
      upstream.requests.map(({ headers: { host: _, ...rest } }) => rest)
    if (fetch !== undefined) expect(headers(pair.myUpstream)).toEqual(headers(pair.sdkUpstream))
    expect(headers(pair.myUpstream)[0]).toMatchObject({
      "x-trace": "t-1",
      "user-agent": expect.stringMatching(/^parley-test /)
    })
  })

  it("a provider name with a dash: options and metadata under its camelCase name, a warning for the raw one", async () => {
    const dashed = await startPair({ fetch, provider: "my-provider" })
    try {
      const upstreams = [dashed.sdkUpstream, dashed.myUpstream]
      for (
        const providerOptions of [{ myProvider: { user: "camel" } }, { "my-provider": { user: "raw" } }, undefined]
      ) {
        const reply = { type: "tool-calls", calls: [{ name: "f", arguments: {} }] } as const
        dashed.enqueue(reply, reply)
        const call: LanguageModelV4CallOptions = {
          prompt: userPrompt("Hi"),
          ...(providerOptions ? { providerOptions } : {})
        }
        const streamed = await streamOutcome(dashed.mine, call)
        const actual = [streamed, await generateOutcome(dashed.mine, call)]
        const expected = [await streamOutcome(dashed.sdk, call), await generateOutcome(dashed.sdk, call)]
        expect(comparable(actual, upstreams, causeDepth)).toEqual(comparable(expected, upstreams, causeDepth))
        expect(streamed.parts.at(-1)).toHaveProperty(
          ["providerMetadata", providerOptions?.myProvider ? "myProvider" : "my-provider"]
        )
      }
      expect(dashed.myUpstream.requests.map((request) => request.body))
        .toEqual(dashed.sdkUpstream.requests.map((request) => request.body))
    } finally {
      await dashed.close()
    }
  })
})
