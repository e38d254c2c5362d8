import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { makeTestTool } from "../../support/tools.ts"

let gateway: TestGateway
let secret: string
let client: OpenAI

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" }), makeTestTool({ name: "dangerous" })] })
  ;({ secret } = await gateway.createKey({ approve: ["dangerous"] }))
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 })
})
afterAll(() => gateway.close())

const clientOf = (apiKey: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 })
const ask = (extra: Record<string, unknown> = {}, on = client) =>
  on.responses.create({ model: "test/m1", input: "Hi", ...extra } as never) as Promise<OpenAI.Responses.Response>

const url = () => `${gateway.url}/v1/responses`
const body = { model: "test/m1", input: "Hi" }
const png =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

describe("the same governance as /api/v1/chat on /v1/responses (issue 21 part 6)", () => {
  it("refuses a model the key may not use with PermissionDeniedError, correlation id in the header", async () => {
    const { secret: narrow } = await gateway.createKey({ models: ["test/m2"] })
    const response = await postJson(url(), body, bearer(narrow))
    expect(response.status).toBe(403)
    expect(response.headers.get("x-correlation-id")).toBeTruthy()
    expect(await response.json()).toMatchObject({
      error: { type: "permission_error", code: "model_not_allowed", param: "model" }
    })
    await expect(ask({}, clientOf(narrow))).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError)
  })

  it("answers a 401 without a correlation id", async () => {
    const response = await postJson(url(), body, bearer("pk_wrong"))
    expect(response.status).toBe(401)
    expect(response.headers.get("x-correlation-id")).toBeNull()
    expect((await response.json()).error.type).toBe("authentication_error")
  })

  it("refuses past a limit with RateLimitError and Retry-After", async () => {
    const { secret: limited } = await gateway.createKey({ limits: { requestsPerMinute: 1 } })
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    expect((await postJson(url(), body, bearer(limited))).status).toBe(200)
    const refused = await postJson(url(), body, bearer(limited))
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await refused.json()).error.type).toBe("rate_limit_error")
    await expect(ask({}, clientOf(limited))).rejects.toBeInstanceOf(OpenAI.RateLimitError)
  })

  it("refuses a key whose token budget is spent with RateLimitError", async () => {
    const { secret: budgeted } = await gateway.createKey({ limits: { tokensPerDay: 100 } })
    gateway.upstream.enqueue({ type: "text", text: "ok", usage: { promptTokens: 10, completionTokens: 90 } })
    // A small max_output_tokens keeps the first call's reservation within the budget.
    expect((await ask({ max_output_tokens: 10 }, clientOf(budgeted))).status).toBe("completed")
    const refused = await ask({ max_output_tokens: 10 }, clientOf(budgeted)).catch((error) => error)
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError)
    expect(refused.error).toMatchObject({ type: "rate_limit_error" })
  })

  it("passes a provider's refusal on as InternalServerError without its key", async () => {
    gateway.upstream.enqueue({
      type: "error",
      status: 400,
      body: { error: { message: `bad request for key ${UPSTREAM_API_KEY}` } }
    })
    const error = await ask().catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.InternalServerError)
    expect(error.status).toBe(500)
    expect(JSON.stringify(error.error)).not.toContain(UPSTREAM_API_KEY)
  })

  it("refuses a server tool that needs approval as a tool error naming the rule, and goes on", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_d", name: "dangerous", arguments: { text: "x" } }]
    })
    gateway.upstream.enqueue({ type: "text", text: "I may not." })
    const response = await ask({ allowedTools: ["dangerous"] })
    expect(response.output_text).toBe("I may not.")
    const told = gateway.upstream.requests.at(-1)!.body.messages.at(-1)
    expect(told).toMatchObject({ role: "tool", tool_call_id: "call_d" })
    expect(told.content).toContain("approvalRequired")
  })

  it("records the ledger row with protocol responses", async () => {
    const { id, secret: own } = await gateway.createKey()
    gateway.upstream.enqueue({ type: "text", text: "ok", usage: { promptTokens: 5, completionTokens: 1 } })
    expect((await postJson(url(), body, bearer(own))).status).toBe(200)
    const [row] = await gateway.ledgerRows({ keyId: id })
    expect(row).toMatchObject({ protocol: "responses", status: 200, model: "test/m1" })
  })

  it("aborts the model call when the client goes away", async () => {
    gateway.upstream.enqueue({ type: "hang" })
    const controller = new AbortController()
    const before = gateway.upstream.requests.length
    const pending = client.responses.create({ model: "test/m1", input: "Hang", stream: true }, {
      signal: controller.signal
    }).then(async (stream) => {
      for await (const _ of stream) { /* read until aborted */ }
    }).catch((error: unknown) => error)
    await expect.poll(() => gateway.upstream.requests.length, { timeout: 3_000 }).toBe(before + 1)
    const upstreamCall = gateway.upstream.requests.at(-1)!
    controller.abort()
    expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError)
    await expect.poll(() => upstreamCall.aborted, { timeout: 3_000 }).toBe(true)
  })

  it("takes an input_image data URL and sends it to the model", async () => {
    gateway.upstream.enqueue({ type: "text", text: "A dot." })
    await ask({
      input: [{
        role: "user",
        content: [{ type: "input_text", text: "What is it?" }, { type: "input_image", image_url: png, detail: "auto" }]
      }]
    })
    const content = gateway.upstream.requests.at(-1)!.body.messages.at(-1).content
    expect(content[1]).toMatchObject({ type: "image_url", image_url: { url: png } })
  })

  it("names the body's own place of an image URL the outbound policy will not fetch", async () => {
    const response = await postJson(url(), {
      model: "test/m1",
      input: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        {
          role: "user",
          content: [{ type: "input_text", text: "What is it?" }, {
            type: "input_image",
            image_url: "http://127.0.0.1:9/cat.png"
          }]
        }
      ]
    }, bearer(secret))
    expect(response.status).toBe(400)
    const { error } = await response.json()
    expect(error).toMatchObject({ type: "invalid_request_error", param: "input[2].content[1]" })
  })
})
