import Anthropic from "@anthropic-ai/sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { makeTestTool } from "../../support/tools.ts"

let gateway: TestGateway
let secret: string
let client: Anthropic

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" }), makeTestTool({ name: "dangerous" })] })
  ;({ secret } = await gateway.createKey({ approve: ["dangerous"] }))
  client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 })
})
afterAll(() => gateway.close())

const clientOf = (apiKey: string) => new Anthropic({ baseURL: gateway.url, apiKey, maxRetries: 0 })
const ask = (on = client, extra: Record<string, unknown> = {}) =>
  on.messages.create({ model: "test/m1", max_tokens: 50, messages: [{ role: "user", content: "Hi" }], ...extra })

const url = () => `${gateway.url}/v1/messages`
const body = { model: "test/m1", max_tokens: 50, messages: [{ role: "user", content: "Hi" }] }
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

describe("the same governance as /api/v1/chat on /v1/messages (issue 21 parts 2 and 6)", () => {
  it("takes the key as a Bearer token too, and Anthropic's headers and ?beta=true", async () => {
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    const response = await postJson(`${url()}?beta=true`, body, {
      ...bearer(secret),
      "anthropic-version": "2023-06-01",
      "anthropic-beta": "interleaved-thinking-2025-05-14"
    })
    expect(response.status).toBe(200)
    expect((await response.json()).content).toEqual([{ type: "text", text: "ok" }])
  })

  it("refuses a model the key may not use with PermissionDeniedError, correlation id in the header", async () => {
    const { secret: narrow } = await gateway.createKey({ models: ["test/m2"] })
    const response = await postJson(url(), body, { "x-api-key": narrow })
    expect(response.status).toBe(403)
    expect(response.headers.get("x-correlation-id")).toBeTruthy()
    // Anthropic's SDKs read the id from request-id.
    expect(response.headers.get("request-id")).toBe(response.headers.get("x-correlation-id"))
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "permission_error" } })
    await expect(ask(clientOf(narrow))).rejects.toBeInstanceOf(Anthropic.PermissionDeniedError)
  })

  it("answers a 401 without a correlation id", async () => {
    const response = await postJson(url(), body, { "x-api-key": "pk_wrong" })
    expect(response.status).toBe(401)
    expect(response.headers.get("x-correlation-id")).toBeNull()
    expect(response.headers.get("request-id")).toBeNull()
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } })
  })

  it("refuses past a limit with RateLimitError and Retry-After", async () => {
    const { secret: limited } = await gateway.createKey({ limits: { requestsPerMinute: 1 } })
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    expect((await postJson(url(), body, { "x-api-key": limited })).status).toBe(200)
    const refused = await postJson(url(), body, { "x-api-key": limited })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await refused.json()).error.type).toBe("rate_limit_error")
    await expect(ask(clientOf(limited))).rejects.toBeInstanceOf(Anthropic.RateLimitError)
  })

  it("passes a provider's refusal on as InternalServerError without its key", async () => {
    gateway.upstream.enqueue({
      type: "error",
      status: 400,
      body: { error: { message: `bad request for key ${UPSTREAM_API_KEY}` } }
    })
    const error = await ask().catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.InternalServerError)
    expect(error.status).toBe(500)
    expect(JSON.stringify(error.error)).not.toContain(UPSTREAM_API_KEY)
  })

  it("refuses a server tool that needs approval as a tool error naming the rule, and goes on", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_d", name: "dangerous", arguments: { text: "x" } }]
    })
    gateway.upstream.enqueue({ type: "text", text: "I may not." })
    const message = await ask(client, { allowedTools: ["dangerous"] })
    expect(message.content).toEqual([{ type: "text", text: "I may not." }])
    const told = gateway.upstream.requests.at(-1)!.body.messages.at(-1)
    expect(told).toMatchObject({ role: "tool", tool_call_id: "call_d" })
    expect(told.content).toContain("approvalRequired")
  })

  it("records the ledger row with protocol messages", async () => {
    const { id, secret: own } = await gateway.createKey()
    gateway.upstream.enqueue({ type: "text", text: "ok", usage: { promptTokens: 5, completionTokens: 1 } })
    expect((await postJson(url(), body, { "x-api-key": own })).status).toBe(200)
    const [row] = await gateway.ledgerRows({ keyId: id })
    expect(row).toMatchObject({ protocol: "messages", status: 200, model: "test/m1" })
  })

  it("aborts the model call when the client goes away", async () => {
    gateway.upstream.enqueue({ type: "hang" })
    const controller = new AbortController()
    const before = gateway.upstream.requests.length
    const pending = client.messages.create(
      { model: "test/m1", max_tokens: 50, messages: [{ role: "user", content: "Hang" }], stream: true },
      { signal: controller.signal }
    ).catch((error: unknown) => error)
    await expect.poll(() => gateway.upstream.requests.length, { timeout: 3_000 }).toBe(before + 1)
    const upstreamCall = gateway.upstream.requests.at(-1)!
    controller.abort()
    expect(await pending).toBeInstanceOf(Anthropic.APIUserAbortError)
    await expect.poll(() => upstreamCall.aborted, { timeout: 3_000 }).toBe(true)
  })

  it("takes an image block and sends it to the model", async () => {
    gateway.upstream.enqueue({ type: "text", text: "A dot." })
    await client.messages.create({
      model: "test/m1",
      max_tokens: 50,
      messages: [{
        role: "user",
        content: [{ type: "text", text: "What is it?" }, {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: png }
        }]
      }]
    })
    const content = gateway.upstream.requests.at(-1)!.body.messages.at(-1).content
    expect(content[1]).toMatchObject({ type: "image_url", image_url: { url: `data:image/png;base64,${png}` } })
  })

  it("names the body's own place of an image URL the outbound policy will not fetch", async () => {
    const response = await postJson(url(), {
      model: "test/m1",
      max_tokens: 50,
      system: "Look closely.",
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        {
          role: "user",
          content: [{ type: "text", text: "What is it?" }, {
            type: "image",
            source: { type: "url", url: "http://127.0.0.1:9/cat.png" }
          }]
        }
      ]
    }, { "x-api-key": secret })
    expect(response.status).toBe(400)
    const { error } = await response.json()
    expect(error.type).toBe("invalid_request_error")
    expect(error.message).toContain(`"messages[2].content[1]"`)
  })
})
