import type { LanguageModelV4 } from "@ai-sdk/provider"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../../src/demo/upstream/server.ts"
import type { Reply, Upstream } from "../../../src/demo/upstream/types.ts"
import { OpenAICompatibleChatModel } from "../../../src/models/openaiCompatible/OpenAICompatibleChatModel.ts"
import { API_KEY, generateOutcome, streamOutcome, userPrompt } from "./pair.ts"

/** Every string an error carries, however deep: message, stack, response, request, data, causes. */
const stringsOf = (value: unknown, seen = new Set<unknown>()): Array<string> => {
  if (typeof value === "string") return [value]
  if (typeof value !== "object" || value === null || seen.has(value)) return []
  seen.add(value)
  const own = Object.getOwnPropertyNames(value).map((name) => (value as Record<string, unknown>)[name])
  return [...(value instanceof Error ? [String(value)] : []), ...own.flatMap((item) => stringsOf(item, seen))]
}

let upstream: Upstream
let model: LanguageModelV4
beforeAll(async () => {
  upstream = await startUpstream({ apiKey: API_KEY })
  model = new OpenAICompatibleChatModel({ provider: "local", baseURL: upstream.url, apiKey: API_KEY, modelId: "demo" })
})
afterAll(() => upstream.close())

const echoed = `Incorrect API key provided: ${API_KEY}`
const failures: ReadonlyArray<[string, Reply]> = [
  ["HTTP 429", { type: "error", status: 429, retryAfter: 1 }],
  ["an error body echoing the key", { type: "error", status: 401, body: { error: { message: echoed, type: "auth" } } }],
  ["a text error body echoing the key", { type: "raw", status: 500, body: echoed }],
  ["a broken stream", { type: "broken", afterChunks: 1 }]
]

describe("the API key never appears in an error", () => {
  for (const [name, reply] of failures) {
    it(name, async () => {
      upstream.enqueue(reply, reply)
      const streamed = await streamOutcome(model, { prompt: userPrompt("Hi") })
      const generated = await generateOutcome(model, { prompt: userPrompt("Hi") })
      const errors = [
        streamed.rejected ?? streamed.streamError,
        "rejected" in generated ? generated.rejected : undefined
      ]
      for (const error of errors) {
        expect(error).toBeInstanceOf(Error)
        const strings = stringsOf(error)
        expect(strings.join("\n")).not.toContain(API_KEY)
        expect(strings.length).toBeGreaterThan(3)
      }
    })
  }

  it("an answer that is not JSON and echoes the key: not in message, responseBody, request or url", async () => {
    upstream.enqueue({ type: "raw", body: `{"oops": "${API_KEY}"` })
    const generated = await generateOutcome(model, { prompt: userPrompt("Hi") })
    expect(generated).toMatchObject({
      rejected: { message: "Invalid JSON response", responseBody: expect.any(String) }
    })
    const error = (generated as { rejected: Record<string, unknown> }).rejected
    const { message, responseBody, requestBodyValues, url, data } = error
    expect(JSON.stringify({ message, responseBody, requestBodyValues, url, data })).not.toContain(API_KEY)
  })

  it("the key is sent, but not in a rejected key's error, an unreachable host's, or an abort's", async () => {
    const wrong = new OpenAICompatibleChatModel({
      provider: "local",
      baseURL: upstream.url,
      apiKey: `${API_KEY}-wrong`,
      modelId: "demo"
    })
    const unreachable = new OpenAICompatibleChatModel({
      provider: "local",
      baseURL: "http://127.0.0.1:1/v1",
      apiKey: API_KEY,
      modelId: "demo"
    })
    upstream.enqueue({ type: "hang" })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error("enough")), 20)
    const outcomes = await Promise.all([
      streamOutcome(wrong, { prompt: userPrompt("Hi") }),
      streamOutcome(unreachable, { prompt: userPrompt("Hi") }),
      streamOutcome(model, { prompt: userPrompt("Hi"), abortSignal: controller.signal })
    ])
    const errors = outcomes.map((outcome) => outcome.rejected ?? outcome.streamError)
    expect(errors[0]).toMatchObject({ statusCode: 401 })
    for (const error of errors) expect(stringsOf(error).join("\n")).not.toContain(API_KEY)
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`)
  })
})
