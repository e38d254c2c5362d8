import { Effect } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { chatThroughAiSdk, withoutIds } from "../support/chatClient.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

let gateway: TestGateway
let secret: string
/** Resolves with the abort reason once a `wait_forever` call is cancelled. */
let toolAborted: Promise<unknown>
let onToolAbort: (reason: unknown) => void = () => {}

const waitForever = makeTestTool({
  name: "wait_forever",
  execute: (_input, execution) =>
    Effect.callback<never>(() => {
      execution.signal.addEventListener("abort", () => onToolAbort(execution.signal.reason))
    })
})

beforeAll(async () => {
  gateway = await startGateway({
    tools: [
      waitForever,
      makeTestTool({ name: "echo" }),
      makeTestTool({ name: "needs_token", requiredContext: [{ field: "partnerToken" }] })
    ]
  })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const chat = async (body: unknown) => {
  const response = await postJson(`${gateway.url}/api/v1/chat`, body, bearer(secret))
  return { response, body: await response.json() }
}

const toolLoopScript = () =>
  gateway.upstream.enqueue(
    {
      type: "tool-calls",
      calls: [{ id: "call_1", name: "echo", arguments: { text: "ping" } }],
      usage: { promptTokens: 10, completionTokens: 5 }
    },
    { type: "text", text: "The tool said ping", usage: { promptTokens: 30, completionTokens: 7, cachedTokens: 4 } }
  )

describe("POST /chat stream=false", () => {
  let requestsBefore = 0
  beforeEach(() => {
    requestsBefore = gateway.upstream.requests.length
  })

  it("answers a ChatResponse with the input history plus the assistant message", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Hello back", usage: { promptTokens: 12, completionTokens: 3 } })
    const { response, body } = await chat(chatBody())
    expect(response.status).toBe(200)
    expect(response.headers.get("x-correlation-id")).toBeTruthy()
    expect(response.headers.get("cache-control")).toBeNull()
    expect(response.headers.get("x-accel-buffering")).toBeNull()
    expect(response.headers.get("x-message-pruned")).toBeNull()
    expect(response.headers.get("x-tools-skipped")).toBeNull()
    expect(body.success).toBe(true)
    expect(body.data.messages[0]).toMatchObject({ role: "user", parts: [{ type: "text", text: "Hello there" }] })
    const assistant = body.data.messages[1]
    expect(assistant.role).toBe("assistant")
    expect(
      assistant.parts.filter((p: { type: string }) => p.type === "text").map((p: { text: string }) => p.text).join("")
    ).toBe("Hello back")
    expect(body.data.usage).toMatchObject({ inputTokens: 12, outputTokens: 3, totalTokens: 15 })
    expect(body.data.tools).toEqual({ used: [], skipped: [] })
    expect(body.data.finished).toBe(true)
  })

  it("sends the resolved system prompt first, with the provider's key, never leaking it", async () => {
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    const { body } = await chat(chatBody({
      promptType: "bossJobsiteLocalSystemPrompt",
      context: { systemPrompts: { bossJobsiteLocalSystemPrompt: "You recruit for Acme." } }
    }))
    const sent = gateway.upstream.requests[requestsBefore]!
    expect(sent.body.messages[0]).toEqual({ role: "system", content: "You recruit for Acme." })
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_API_KEY}`)
    expect(JSON.stringify(body)).not.toContain(UPSTREAM_API_KEY)
  })

  it("runs tools on the server and returns calls and results in the history (rule 11)", async () => {
    toolLoopScript()
    const { body } = await chat(chatBody({ allowedTools: ["echo"] }))
    const parts = body.data.messages[1].parts
    const call = parts.find((p: { type: string }) => p.type === "dynamic-tool")
    expect(call).toMatchObject({
      type: "dynamic-tool",
      toolName: "echo",
      toolCallId: "call_1",
      state: "output-available",
      input: { text: "ping" },
      output: { echoed: "ping" }
    })
    expect(body.data.tools).toEqual({ used: ["echo"], skipped: [] })
    expect(body.data.usage).toMatchObject({ inputTokens: 40, outputTokens: 12, totalTokens: 52, cachedInputTokens: 4 })
    const second = gateway.upstream.requests[requestsBefore + 1]!.body.messages
    expect(second.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" })
    expect(second.at(-1).content).toContain("ping")
    // An answer sent in one piece asks the provider for whole answers (docs/DESIGN.md §3.23).
    expect(gateway.upstream.requests.slice(requestsBefore).map((request) => request.body.stream)).toEqual([
      undefined,
      undefined
    ])
  })

  it("skips tools with missing context under contextStrategy=skip and says so", async () => {
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    const { response, body } = await chat(chatBody({ allowedTools: ["echo", "needs_token"], contextStrategy: "skip" }))
    expect(response.status).toBe(200)
    expect(response.headers.get("x-tools-skipped")).toBe("needs_token")
    expect(body.data.tools).toEqual({ used: ["echo"], skipped: ["needs_token"] })
    const offered = gateway.upstream.requests[requestsBefore]!.body.tools.map((t: { function: { name: string } }) =>
      t.function.name
    )
    expect(offered).toEqual(["echo"])
  })

  it("stops at 30 steps and marks the answer unfinished", async () => {
    gateway.upstream.respondWith(() => ({
      type: "tool-calls",
      calls: [{ name: "echo", arguments: { text: "again" } }]
    }))
    try {
      const { body } = await chat(chatBody({ allowedTools: ["echo"] }))
      expect(body.data.finished).toBe(false)
      expect(body.data.finishReason).toBe("step-limit")
      expect(gateway.upstream.requests.length - requestsBefore).toBe(30)
    } finally {
      gateway.upstream.respondWith(() => ({ type: "text", text: "fine" }))
    }
  })
})

describe("POST /chat stream=true", () => {
  it("streams SSE with the spec's headers, tool events and [DONE]", async () => {
    const before = gateway.upstream.requests.length
    toolLoopScript()
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ stream: true, allowedTools: ["echo"] }),
      bearer(secret)
    )
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("text/event-stream")
    expect(response.headers.get("cache-control")).toBe("no-cache")
    expect(response.headers.get("x-accel-buffering")).toBe("no")
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1")
    expect(response.headers.get("x-correlation-id")).toBeTruthy()
    const text = await response.text()
    expect(text).toMatch(/event: tool\ndata: \{"type":"tool-input-available"/)
    expect(text).toMatch(/event: tool\ndata: \{"type":"tool-output-available"/)
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true)
    expect(gateway.upstream.requests.slice(before).map((request) => request.body.stream)).toEqual([true, true])
  })

  it("yields through the AI SDK client the same assistant message as the JSON answer", async () => {
    toolLoopScript()
    const json = await chat(chatBody({ allowedTools: ["echo"] }))
    toolLoopScript()
    const streamed = await chatThroughAiSdk(
      gateway.url,
      secret,
      [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hello there" }] }],
      { model: "test/m1", allowedTools: ["echo"] }
    )
    expect(withoutIds(streamed.message)).toEqual(withoutIds(json.body.data.messages[1]))
    expect(streamed.chunks.at(-1)).toMatchObject({ type: "finish", messageMetadata: { finished: true } })
  })
})

describe("upstream failures (docs/DESIGN.md §3.3, §3.8)", () => {
  it("maps an unavailable provider to 503 before any stream starts", async () => {
    gateway.upstream.enqueue(...Array.from({ length: 3 }, () => ({ type: "error" as const, status: 503 })))
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream: true }), bearer(secret))
    expect(response.status).toBe(503)
    const body = await response.json()
    expect(body).toMatchObject({ error: "ServiceUnavailable", statusCode: 503, details: { provider: "test" } })
    expect(JSON.stringify(body)).not.toContain(UPSTREAM_API_KEY)
  })

  it("maps a refused request to 500 with details.error", async () => {
    gateway.upstream.enqueue({
      type: "error",
      status: 400,
      body: { error: { message: "bad tool schema", type: "invalid_request_error" } }
    })
    const { response, body } = await chat(chatBody())
    expect(response.status).toBe(500)
    expect(body.error).toBe("InternalServerError")
    expect(typeof body.details.error).toBe("string")
  })

  it("ends a stream that breaks after it began with an error chunk and a finish chunk", async () => {
    gateway.upstream.enqueue({ type: "broken", afterChunks: 2 })
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream: true }), bearer(secret))
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toContain(`"type":"error"`)
    expect(text).toMatch(/data: \{"type":"finish"[^\n]*\}\n\ndata: \[DONE\]\n\n$/)
  })

  it("aborts the upstream request when the client disconnects mid-stream", async () => {
    gateway.upstream.enqueue({ type: "text", text: "a b c d e f g h i j k l m n o p", chunkDelayMs: 300 })
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream: true }), bearer(secret))
    const reader = response.body!.getReader()
    await reader.read()
    await reader.cancel()
    const aborted = await gateway.upstream.waitForAbort(3_000)
    expect(aborted.aborted).toBe(true)
  })
  it("aborts a running tool when the client disconnects", async () => {
    toolAborted = new Promise((resolve) => {
      onToolAbort = resolve
    })
    gateway.upstream.enqueue({ type: "tool-calls", calls: [{ name: "wait_forever", arguments: { text: "x" } }] })
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ stream: true, allowedTools: ["wait_forever"] }),
      bearer(secret)
    )
    const reader = response.body!.getReader()
    let seen = ""
    while (!seen.includes("tool-input-available")) seen += new TextDecoder().decode((await reader.read()).value)
    const cancelledAt = Date.now()
    await reader.cancel()
    await toolAborted
    expect(Date.now() - cancelledAt).toBeLessThan(1_000)
  })
})
