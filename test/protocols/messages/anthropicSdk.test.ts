import Anthropic from "@anthropic-ai/sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../../support/gateway.ts"
import { makeTestTool } from "../../support/tools.ts"

let gateway: TestGateway
let client: Anthropic

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" })] })
  const { secret } = await gateway.createKey()
  client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 })
})
afterAll(() => gateway.close())

const weather: Anthropic.Tool = {
  name: "weather",
  description: "The weather in a city",
  input_schema: { type: "object", properties: { city: { type: "string" } } }
}

describe("POST /v1/messages through @anthropic-ai/sdk (issue 21 part 2)", () => {
  it("answers a whole message with thinking, text and usage, cache reads apart", async () => {
    gateway.upstream.enqueue({
      type: "text",
      text: "Hello there",
      reasoning: "Greet back.",
      usage: { promptTokens: 10, completionTokens: 2, cachedTokens: 4 }
    })
    const message = await client.messages.create({
      model: "test/m1",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hi" }]
    })
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      model: "test/m1",
      content: [{ type: "thinking", thinking: "Greet back." }, { type: "text", text: "Hello there" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 6, output_tokens: 2, cache_read_input_tokens: 4, cache_creation_input_tokens: 0 }
    })
    // The message's id and the SDK's request id are parley's correlation id.
    expect(message.id).toBe(`msg_${message._request_id}`)
    const sent = gateway.upstream.requests.at(-1)!.body
    expect(sent.messages[0]).toMatchObject({ role: "system", content: "Be brief." })
    expect(sent.max_tokens).toBe(100)
    expect(JSON.stringify(message)).not.toContain(UPSTREAM_API_KEY)
  })

  it("streams named events the SDK folds into the same message", async () => {
    gateway.upstream.enqueue({ type: "text", text: "one two three", reasoning: "thinking hard" })
    const stream = client.messages.stream({
      model: "test/m1",
      max_tokens: 100,
      messages: [{ role: "user", content: "Count" }]
    })
    const types: Array<string> = []
    let text = ""
    for await (const event of stream) {
      types.push(event.type)
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text
    }
    const message = await stream.finalMessage()
    expect(text).toBe("one two three")
    expect(types[0]).toBe("message_start")
    expect(types.slice(-2)).toEqual(["message_delta", "message_stop"])
    expect(message.content).toMatchObject([{ type: "thinking", thinking: "thinking hard" }, {
      type: "text",
      text: "one two three"
    }])
    expect(message.stop_reason).toBe("end_turn")
    expect(message.usage.output_tokens).toBeGreaterThan(0)
  })

  it("hands a call of the client's tool back as tool_use, and takes its tool_result in the next request", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_w", name: "weather", arguments: { city: "Oslo" } }]
    })
    const messages: Array<Anthropic.MessageParam> = [{ role: "user", content: "Weather in Oslo?" }]
    const first = await client.messages.create({ model: "test/m1", max_tokens: 100, messages, tools: [weather] })
    expect(first.stop_reason).toBe("tool_use")
    expect(first.content).toEqual([{ type: "tool_use", id: "call_w", name: "weather", input: { city: "Oslo" } }])
    const offered = gateway.upstream.requests.at(-1)!.body.tools
    expect(offered.map((tool: any) => tool.function.name)).toEqual(["weather"])

    gateway.upstream.enqueue({ type: "text", text: "Sunny" })
    const second = await client.messages.create({
      model: "test/m1",
      max_tokens: 100,
      tools: [weather],
      messages: [...messages, { role: "assistant", content: first.content }, {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "call_w", content: "sunny, 21 C" }]
      }]
    })
    expect(second.content).toEqual([{ type: "text", text: "Sunny" }])
    const sent = gateway.upstream.requests.at(-1)!.body.messages
    expect(sent.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_w" }] })
    expect(sent.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_w", content: "sunny, 21 C" })
  })

  it("runs parley's tools named in allowedTools on the server, never as tool_use", async () => {
    gateway.upstream.enqueue({ type: "tool-calls", calls: [{ id: "call_e", name: "echo", arguments: { text: "hi" } }] })
    gateway.upstream.enqueue({ type: "text", text: "Echoed" })
    const message = await client.messages.create({
      model: "test/m1",
      max_tokens: 100,
      messages: [{ role: "user", content: "Echo hi" }],
      // @ts-expect-error parley's server-tool fields ride along as extra body fields
      allowedTools: ["echo"]
    })
    expect(message).toMatchObject({ content: [{ type: "text", text: "Echoed" }], stop_reason: "end_turn" })
    const followUp = gateway.upstream.requests.at(-1)!.body.messages
    expect(followUp.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_e" })
  })

  it("drops a hosted tool it does not provide and names it in X-Tools-Skipped", async () => {
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    const { response } = await client.messages.create({
      model: "test/m1",
      max_tokens: 100,
      messages: [{ role: "user", content: "Search" }],
      tools: [weather, { type: "web_search_20250305", name: "web_search", max_uses: 1 }]
    }).withResponse()
    expect(response.headers.get("x-tools-skipped")).toBe("web_search")
    const offered = gateway.upstream.requests.at(-1)!.body.tools
    expect(offered.map((tool: any) => tool.function.name)).toEqual(["weather"])
  })

  it("counts a body's input tokens", async () => {
    const counted = await client.messages.countTokens({
      model: "test/m1",
      system: "Be brief.",
      messages: [{ role: "user", content: "How many tokens is this?" }],
      tools: [weather]
    })
    expect(counted.input_tokens).toBeGreaterThan(10)
    const more = await client.messages.countTokens({
      model: "test/m1",
      messages: [{ role: "user", content: "How many tokens is this? ".repeat(20) }]
    })
    expect(more.input_tokens).toBeGreaterThan(counted.input_tokens)
  })

  it("gives the SDK's typed errors", async () => {
    const bad = new Anthropic({ baseURL: gateway.url, apiKey: "pk_nope", maxRetries: 0 })
    const ask = { model: "test/m1", max_tokens: 10, messages: [{ role: "user" as const, content: "x" }] }
    await expect(bad.messages.create(ask)).rejects.toBeInstanceOf(Anthropic.AuthenticationError)
    await expect(bad.messages.countTokens(ask)).rejects.toBeInstanceOf(Anthropic.AuthenticationError)
    await expect(client.messages.create({ ...ask, model: "nope/m" })).rejects.toBeInstanceOf(Anthropic.BadRequestError)
    await expect(client.messages.create({ ...ask, mystery: 1 } as never)).rejects.toMatchObject({
      status: 400,
      error: { type: "error", error: { type: "invalid_request_error" } }
    })
  })
})

describe("a stream that breaks off on /v1/messages", () => {
  it("ends with an error event the SDK raises, after the text so far", async () => {
    gateway.upstream.enqueue({ type: "broken", afterChunks: 2 })
    const stream = client.messages.stream({
      model: "test/m1",
      max_tokens: 100,
      messages: [{ role: "user", content: "Go" }]
    })
    let text = ""
    const error = await (async () => {
      for await (const event of stream) {
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text
      }
    })().catch((e: unknown) => e)
    expect(text.length).toBeGreaterThan(0)
    expect(error).toBeInstanceOf(Anthropic.APIError)
  })
})
