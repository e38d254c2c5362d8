import Anthropic from "@anthropic-ai/sdk"
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { startAnthropicUpstream, THINKING_SIGNATURE } from "../../support/upstreams/anthropic.ts"
import type { ScriptedUpstream } from "../../support/upstreams/scripted.ts"

const ANTHROPIC_KEY = "sk-ant-api03-parleyDoorTest0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV-AbCdAA"

let anthropic: ScriptedUpstream
let gateway: TestGateway
let client: Anthropic

beforeAll(async () => {
  anthropic = await startAnthropicUpstream(ANTHROPIC_KEY)
  gateway = await startGateway({
    providers: [{
      id: "claude",
      type: "anthropic",
      baseURL: anthropic.url,
      apiKey: Redacted.make(ANTHROPIC_KEY),
      models: [{ id: "sonnet", name: "Sonnet", categories: ["chat"], contextWindow: 200_000, maxOutputTokens: 8_000 }]
    }]
  })
  const { secret } = await gateway.createKey()
  client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 })
})
afterAll(async () => {
  await gateway.close()
  await anthropic.close()
})

const weather: Anthropic.Tool = {
  name: "weather",
  input_schema: { type: "object", properties: { city: { type: "string" } } }
}
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

describe("an Anthropic model behind /v1/messages (issue 21 part 5)", () => {
  it("streams signed thinking and text, usage with cache reads apart, and takes the signed thinking back", async () => {
    anthropic.enqueue({
      type: "text",
      text: "Hello from Claude.",
      reasoning: "Greet back.",
      usage: { input: 70, output: 12, cached: 32, reasoning: 5 }
    })
    const stream = client.messages.stream({
      model: "claude/sonnet",
      max_tokens: 1_000,
      thinking: { type: "enabled", budget_tokens: 2_000 },
      system: [{ type: "text", text: "Be kind." }],
      messages: [{ role: "user", content: "Hi" }]
    })
    const deltas = new Set<string>()
    for await (const event of stream) if (event.type === "content_block_delta") deltas.add(event.delta.type)
    const message = await stream.finalMessage()
    expect([...deltas].sort()).toEqual(["signature_delta", "text_delta", "thinking_delta"])
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Greet back.", signature: THINKING_SIGNATURE },
      { type: "text", text: "Hello from Claude." }
    ])
    expect(message.usage).toMatchObject({ input_tokens: 38, output_tokens: 12, cache_read_input_tokens: 32 })
    expect(anthropic.requests.at(-1)!.body.system).toEqual([{ type: "text", text: "Be kind." }])

    anthropic.enqueue({ type: "text", text: "Again." })
    await client.messages.create({
      model: "claude/sonnet",
      max_tokens: 1_000,
      thinking: { type: "enabled", budget_tokens: 2_000 },
      messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: message.content }, {
        role: "user",
        content: "Once more"
      }]
    })
    const sent = anthropic.requests.at(-1)!.body.messages
    expect(sent[1].content[0]).toEqual({ type: "thinking", thinking: "Greet back.", signature: THINKING_SIGNATURE })
  })

  it("hands back a tool_use, takes its tool_result and an image on the next request", async () => {
    anthropic.enqueue({ type: "tool-calls", calls: [{ id: "toolu_1", name: "weather", arguments: { city: "Oslo" } }] })
    const messages: Array<Anthropic.MessageParam> = [{
      role: "user",
      content: [{ type: "text", text: "Weather where this is?" }, {
        type: "image",
        source: { type: "base64", media_type: "image/png", data: png }
      }]
    }]
    const first = await client.messages.create({
      model: "claude/sonnet",
      max_tokens: 500,
      messages,
      tools: [weather],
      // Anthropic's API takes top_k; this SDK's types no longer list it.
      ...{ top_k: 5 } as object,
      stop_sequences: ["END"],
      tool_choice: { type: "any" }
    })
    expect(first.stop_reason).toBe("tool_use")
    expect(anthropic.requests.at(-1)!.body).toMatchObject({
      // Anthropic's API takes top_k; this SDK's types no longer list it.
      ...{ top_k: 5 } as object,
      stop_sequences: ["END"],
      tool_choice: { type: "any" }
    })
    expect(first.content.at(-1)).toEqual({ type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Oslo" } })
    expect(anthropic.requests.at(-1)!.body.messages[0].content[1]).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png" }
    })

    anthropic.enqueue({ type: "text", text: "Sunny.", length: true })
    const next = await client.messages.create({
      model: "claude/sonnet",
      max_tokens: 500,
      tools: [weather],
      messages: [...messages, { role: "assistant", content: first.content }, {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny" }]
      }]
    })
    expect(next).toMatchObject({ content: [{ type: "text", text: "Sunny." }], stop_reason: "max_tokens" })
    const sent = anthropic.requests.at(-1)!.body.messages
    expect(sent.at(-2).content).toContainEqual(
      expect.objectContaining({ type: "tool_use", id: "toolu_1", name: "weather" })
    )
    expect(sent.at(-1).content).toContainEqual(expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_1" }))
  })
})
