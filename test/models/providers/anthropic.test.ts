import { createAnthropic } from "@ai-sdk/anthropic"
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadModelCatalog } from "../../../src/config/modelCatalog.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { startAnthropicUpstream, THINKING_SIGNATURE } from "../../support/upstreams/anthropic.ts"
import type { ScriptedUpstream } from "../../support/upstreams/scripted.ts"
import { providerSuite } from "./providerSuite.ts"

const modelCatalog = await loadModelCatalog()

// A key shaped like the console's (`sk-ant-api03-…`).
const API_KEY =
  "sk-ant-api03-parleyTest0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-AbCdEfAA"

providerSuite({
  type: "anthropic",
  apiKey: API_KEY,
  startUpstream: startAnthropicUpstream,
  keyOf: (request) => request.headers["x-api-key"] as string | undefined,
  sdkModel: (baseURL, apiKey, modelId) => createAnthropic({ baseURL, apiKey }).messages(modelId),
  sdkProvider: "anthropic.messages",
  wholeAnswers: true,
  streamErrors: true,
  thinkingSignature: THINKING_SIGNATURE,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, reasoningTokens: 5, cachedInputTokens: 32 }
})

// Statuses of Anthropic's own the shared suite does not send: 529 (overloaded) and a refused key's 401.
describe("provider type anthropic: Anthropic's statuses", () => {
  let upstream: ScriptedUpstream
  let gateway: TestGateway
  let secret: string
  const models = modelCatalog.offered("anthropic")

  beforeAll(async () => {
    upstream = await startAnthropicUpstream(API_KEY)
    const provider = (id: string, key: string) => ({
      id,
      type: "anthropic" as const,
      baseURL: upstream.url,
      apiKey: Redacted.make(key),
      models
    })
    gateway = await startGateway({ providers: [provider("a", API_KEY), provider("wrong", `${API_KEY}-revoked`)] })
    ;({ secret } = await gateway.createKey())
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  const chat = async (model: string) => {
    const response = await postJson(`${gateway.url}/api/v1/chat`, {
      model,
      messages: [{ role: "user", content: "hi" }],
      stream: false
    }, bearer(secret))
    return { response, body: await response.json() }
  }

  it("529 overloaded_error is retried, then answered; every request names the API version", async () => {
    const before = upstream.requests.length
    upstream.enqueue({ type: "error", status: 529 }, { type: "text", text: "Back again." })
    const { body, response } = await chat(`a/${models[0]!.id}`)
    expect(response.status).toBe(200)
    expect(body.data.messages[1].parts).toContainEqual(expect.objectContaining({ type: "text", text: "Back again." }))
    const sent = upstream.requests.slice(before)
    expect(sent.map((request) => request.headers["anthropic-version"])).toEqual(["2023-06-01", "2023-06-01"])
  })

  it("a key Anthropic refuses (401 authentication_error): 500 with its message, the key redacted", async () => {
    const { body, response } = await chat(`wrong/${models[0]!.id}`)
    expect(response.status).toBe(500)
    expect(body.message).toContain("invalid x-api-key")
    expect(body.details.error).toContain("HTTP 401")
    expect(JSON.stringify(body)).not.toContain(API_KEY)
  })
})
