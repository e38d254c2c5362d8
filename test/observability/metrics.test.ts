import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ToolFailure } from "../../src/tools/Tool.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { withParleyClient } from "../support/mcp/parleyClient.ts"
import { makeTestTool } from "../support/tools.ts"

const METRICS_TOKEN = "metrics-token-2c7d9e4f1a08"
const ADMIN_TOKEN = "admin-token-93be1d0c5f27"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({
    tools: [
      makeTestTool({ name: "echo" }),
      makeTestTool({ name: "broken", execute: () => Effect.fail(new ToolFailure("out of order")) })
    ],
    observability: { metricsToken: Redacted.make(METRICS_TOKEN) },
    config: { adminToken: Redacted.make(ADMIN_TOKEN) }
  })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const scrape = async (token = METRICS_TOKEN) => {
  const response = await fetch(`${gateway.url}/metrics`, { headers: bearer(token) })
  expect(response.status).toBe(200)
  return response.text()
}

/** A sample's value in Prometheus text: `name{labels} value`; 0 when the series is not there yet. */
const sample = (text: string, name: string, labels = ""): number => {
  const prefix = labels === "" ? `${name} ` : `${name}{${labels}} `
  const line = text.split("\n").find((candidate) => candidate.startsWith(prefix))
  return line === undefined ? 0 : Number(line.slice(prefix.length))
}

describe("/metrics (docs/DESIGN.md §8)", () => {
  it("refuses without a token, with a wrong one, and with an API key, in the spec's 401 body", async () => {
    const missing = await fetch(`${gateway.url}/metrics`)
    expect(missing.status).toBe(401)
    expect(await missing.json()).toEqual({
      error: "Unauthorized",
      message: "Missing authorization header",
      statusCode: 401
    })
    for (const token of ["wrong-token", secret]) {
      const wrong = await fetch(`${gateway.url}/metrics`, { headers: bearer(token) })
      expect(wrong.status).toBe(401)
      expect(await wrong.json()).toMatchObject({ error: "Unauthorized", statusCode: 401 })
    }
  })

  it("answers Prometheus text with the metrics token or the admin token", async () => {
    const response = await fetch(`${gateway.url}/metrics`, { headers: bearer(ADMIN_TOKEN) })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("text/plain")
    const text = await scrape()
    for (
      const name of [
        "process_cpu_user_seconds_total",
        "process_resident_memory_bytes",
        "nodejs_active_handles",
        "parley_event_loop_lag_seconds",
        "parley_http_requests_total",
        "parley_http_request_duration_seconds",
        "parley_chat_active",
        "parley_model_calls_total",
        "parley_model_tokens_total",
        "parley_model_time_to_first_token_seconds",
        "parley_tool_calls_total",
        "parley_tool_duration_seconds"
      ]
    ) expect(text).toContain(`# TYPE ${name} `)
    expect(text).toContain(`parley_sandboxes{state="active"} 0`)
  })

  it("labels both Messages routes with protocol messages (issue 21)", async () => {
    const before = await scrape()
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    const body = { model: "test/m1", max_tokens: 10, messages: [{ role: "user", content: "Hi" }] }
    const message = await postJson(`${gateway.url}/v1/messages`, body, { "x-api-key": secret })
    expect(message.status).toBe(200)
    await message.text()
    const counted = await postJson(`${gateway.url}/v1/messages/count_tokens?beta=true`, body, { "x-api-key": secret })
    expect(counted.status).toBe(200)
    await counted.text()
    const after = await scrape()
    const moved = (labels: string) =>
      sample(after, "parley_http_requests_total", labels) - sample(before, "parley_http_requests_total", labels)
    expect(moved(`route="/v1/messages",status="200",protocol="messages"`)).toBe(1)
    expect(moved(`route="/v1/messages/count_tokens",status="200",protocol="messages"`)).toBe(1)
  })

  it("labels the Responses route with protocol responses (issue 21)", async () => {
    const before = await scrape()
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    const response = await postJson(`${gateway.url}/v1/responses`, { model: "test/m1", input: "Hi" }, bearer(secret))
    expect(response.status).toBe(200)
    await response.text()
    const after = await scrape()
    const labels = `route="/v1/responses",status="200",protocol="responses"`
    expect(
      sample(after, "parley_http_requests_total", labels) - sample(before, "parley_http_requests_total", labels)
    ).toBe(1)
  })

  it("counters and histograms move with requests, model calls and tool calls", async () => {
    const before = await scrape()
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "call_1", name: "echo", arguments: { text: "ping" } }],
        usage: { promptTokens: 10, completionTokens: 5 }
      },
      { type: "text", text: "done", usage: { promptTokens: 30, completionTokens: 7 } }
    )
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ allowedTools: ["echo"] }), bearer(secret))
    expect(response.status).toBe(200)
    await response.text()
    gateway.upstream.enqueue({ type: "text", text: "ok", usage: { promptTokens: 1, completionTokens: 1 } })
    const completions = await postJson(
      `${gateway.url}/v1/chat/completions`,
      { model: "test/m1", messages: [{ role: "user", content: "Hi" }] },
      bearer(secret)
    )
    expect(completions.status).toBe(200)
    await completions.text()
    const unknown = await fetch(`${gateway.url}/no/such/path/42`)
    expect(unknown.status).toBe(404)
    const after = await scrape()

    const moved = (name: string, labels = "") => sample(after, name, labels) - sample(before, name, labels)
    // A protocol's route carries its protocol (docs/DESIGN.md §14); any other route has no such label.
    expect(moved("parley_http_requests_total", `route="/api/v1/chat",status="200",protocol="ui"`)).toBe(1)
    expect(moved("parley_http_requests_total", `route="/v1/chat/completions",status="200",protocol="chat-completions"`))
      .toBe(1)
    expect(moved("parley_http_requests_total", `route="other",status="404"`)).toBe(1)
    expect(moved("parley_http_request_duration_seconds_count", `route="/api/v1/chat",protocol="ui"`)).toBe(1)
    expect(moved("parley_http_request_duration_seconds_count", `route="other"`)).toBe(1)
    expect(moved("parley_model_calls_total", `provider="test",model="m1",outcome="ok"`)).toBe(3)
    expect(moved("parley_model_tokens_total", `provider="test",model="m1",type="input"`)).toBe(41)
    expect(moved("parley_model_tokens_total", `provider="test",model="m1",type="output"`)).toBe(13)
    expect(moved("parley_model_time_to_first_token_seconds_count", `provider="test",model="m1"`)).toBe(3)
    expect(moved("parley_tool_calls_total", `tool="echo",outcome="ok"`)).toBe(1)
    expect(moved("parley_tool_duration_seconds_count", `tool="echo"`)).toBe(1)
    // Raw paths never become labels.
    expect(after).not.toContain("/no/such/path")
  })

  it("counts and times the tool calls /mcp runs as /chat's, by tool and outcome (docs/DESIGN.md §9)", async () => {
    const before = await scrape()
    await withParleyClient(gateway.url, secret, (client) =>
      Effect.gen(function*() {
        const tools = yield* client.listTools()
        const named = (name: string) => tools.find((tool) => tool.name === name)!
        for (const text of ["one", "two"]) {
          expect((yield* client.callTool({ tool: named("echo"), arguments: { text } })).isError ?? false).toBe(false)
        }
        expect((yield* client.callTool({ tool: named("broken"), arguments: { text: "x" } })).isError).toBe(true)
        // Refused before it runs (its input is wrong): not a tool call.
        expect((yield* client.callTool({ tool: named("echo"), arguments: { text: 42 } })).isError).toBe(true)
      }))
    const after = await scrape()
    const moved = (name: string, labels: string) => sample(after, name, labels) - sample(before, name, labels)
    expect(moved("parley_tool_calls_total", `tool="echo",outcome="ok"`)).toBe(2)
    expect(moved("parley_tool_duration_seconds_count", `tool="echo"`)).toBe(2)
    expect(moved("parley_tool_calls_total", `tool="broken",outcome="error"`)).toBe(1)
    expect(moved("parley_tool_duration_seconds_count", `tool="broken"`)).toBe(1)
    expect(moved("parley_tool_duration_seconds_sum", `tool="echo"`)).toBeGreaterThan(0)
    // The requests themselves are told apart by their route.
    expect(moved("parley_http_requests_total", `route="/mcp",status="200",protocol="mcp"`)).toBeGreaterThanOrEqual(4)
  })

  it("a failing provider counts each attempt by its outcome", async () => {
    const before = await scrape()
    const failing = { type: "error", status: 503, retryAfter: 0 } as const
    gateway.upstream.enqueue(failing, failing, failing)
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
    expect(response.status).toBe(503)
    const after = await scrape()
    const labels = `provider="test",model="m1",outcome="ProviderUnavailable"`
    expect(sample(after, "parley_model_calls_total", labels) - sample(before, "parley_model_calls_total", labels))
      .toBe(3)
  })

  it("parley_chat_active counts a stream while it runs", async () => {
    gateway.upstream.enqueue({ type: "hang" })
    const controller = new AbortController()
    const pending = fetch(`${gateway.url}/api/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(secret) },
      body: JSON.stringify(chatBody({ stream: true })),
      signal: controller.signal
    })
    void pending.catch(() => undefined)
    const active = () => scrape().then((text) => sample(text, "parley_chat_active", `mode="stream",protocol="ui"`))
    await expect.poll(active).toBe(1)
    controller.abort()
    await expect.poll(active, { timeout: 5_000 }).toBe(0)
  })
})

describe("/metrics with PARLEY_METRICS_PUBLIC=true", () => {
  it("answers without a token", async () => {
    const open = await startGateway({ observability: { metricsPublic: true } })
    try {
      const response = await fetch(`${open.url}/metrics`)
      expect(response.status).toBe(200)
      expect(await response.text()).toContain("# TYPE parley_http_requests_total counter")
    } finally {
      await open.close()
    }
  })
})
