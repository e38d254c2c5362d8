import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Upstream } from "../../../src/demo/upstream/types.ts"
import { type ProviderGateway, startProviderGateway } from "../../support/upstreams/providerGateway.ts"
import type { ScriptedUpstream } from "../../support/upstreams/scripted.ts"

let providers: ProviderGateway
let anthropic: ScriptedUpstream
let openai: Upstream
let client: OpenAI

beforeAll(async () => {
  providers = await startProviderGateway()
  ;({ anthropic, openai } = providers)
  client = new OpenAI({ baseURL: `${providers.gateway.url}/v1`, apiKey: providers.secret, maxRetries: 0 })
})
afterAll(() => providers.close())

const weather: OpenAI.ChatCompletionTool = {
  type: "function",
  function: { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } }
}
const png =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

describe("an Anthropic model behind /v1/chat/completions (issue 20 part 6)", () => {
  it("answers text with its thinking as reasoning_content, and usage with cached tokens", async () => {
    anthropic.enqueue({
      type: "text",
      text: "Hello from Claude.",
      reasoning: "Greet back.",
      usage: { input: 70, output: 12, cached: 32, reasoning: 5 }
    })
    const completion = await client.chat.completions.create({
      model: "claude/sonnet",
      messages: [{ role: "system", content: "Be kind." }, { role: "user", content: "Hi" }]
    })
    expect(completion.choices[0]).toMatchObject({
      message: { content: "Hello from Claude.", reasoning_content: "Greet back." },
      finish_reason: "stop"
    })
    expect(completion.usage).toMatchObject({
      prompt_tokens: 70,
      completion_tokens: 12,
      prompt_tokens_details: { cached_tokens: 32 },
      completion_tokens_details: { reasoning_tokens: 5 }
    })
    expect(anthropic.requests.at(-1)!.body.system).toEqual([{ type: "text", text: "Be kind." }])
  })

  it("hands back a tool_use as tool_calls, takes the result as tool_result, and images as image blocks", async () => {
    anthropic.enqueue({ type: "tool-calls", calls: [{ id: "toolu_1", name: "weather", arguments: { city: "Oslo" } }] })
    const messages: Array<OpenAI.ChatCompletionMessageParam> = [{
      role: "user",
      content: [{ type: "text", text: "Weather where this is?" }, { type: "image_url", image_url: { url: png } }]
    }]
    const stream = await client.chat.completions.create({
      model: "claude/sonnet",
      messages,
      tools: [weather],
      stream: true
    })
    const calls: Array<{ id?: string; name?: string; arguments: string }> = []
    let finish: string | null = null
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[call.index] ??= { arguments: "" }
        Object.assign(
          calls[call.index]!,
          call.id === undefined ? {} : { id: call.id },
          call.function?.name === undefined ? {} : { name: call.function.name }
        )
        calls[call.index]!.arguments += call.function?.arguments ?? ""
      }
      finish = chunk.choices[0]?.finish_reason ?? finish
    }
    expect(finish).toBe("tool_calls")
    expect(calls).toEqual([{ id: "toolu_1", name: "weather", arguments: JSON.stringify({ city: "Oslo" }) }])
    expect(anthropic.requests.at(-1)!.body.messages[0].content[1]).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png" }
    })

    anthropic.enqueue({ type: "text", text: "Sunny.", length: true })
    const next = await client.chat.completions.create({
      model: "claude/sonnet",
      tools: [weather],
      messages: [
        ...messages,
        {
          role: "assistant",
          content: null,
          tool_calls: [{
            id: "toolu_1",
            type: "function",
            function: { name: "weather", arguments: calls[0]!.arguments }
          }]
        },
        { role: "tool", tool_call_id: "toolu_1", content: "sunny" }
      ]
    })
    expect(next.choices[0]).toMatchObject({ message: { content: "Sunny." }, finish_reason: "length" })
    const sent = anthropic.requests.at(-1)!.body.messages
    expect(sent.at(-2).content).toContainEqual(
      expect.objectContaining({ type: "tool_use", id: "toolu_1", name: "weather" })
    )
    expect(sent.at(-1).content).toContainEqual(expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_1" }))
  })
})

describe("an OpenAI model behind /v1/chat/completions (issue 20 part 6)", () => {
  it("answers text with usage and cached tokens, and hands back tool calls", async () => {
    openai.enqueue({
      type: "text",
      text: "Hi from GPT.",
      usage: { promptTokens: 40, completionTokens: 4, cachedTokens: 16 }
    })
    const completion = await client.chat.completions.create({
      model: "oa/gpt",
      messages: [{ role: "user", content: "Hi" }]
    })
    expect(completion.choices[0]!.message.content).toBe("Hi from GPT.")
    expect(completion.usage).toMatchObject({
      prompt_tokens: 40,
      completion_tokens: 4,
      prompt_tokens_details: { cached_tokens: 16 }
    })

    openai.enqueue({ type: "tool-calls", calls: [{ id: "call_9", name: "weather", arguments: { city: "Rome" } }] })
    const called = await client.chat.completions.create({
      model: "oa/gpt",
      messages: [{ role: "user", content: "Weather in Rome?" }],
      tools: [weather],
      tool_choice: "required"
    })
    expect(called.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { tool_calls: [{ id: "call_9" }] }
    })
    expect(openai.requests.at(-1)!.body.tool_choice).toBe("required")
  })
})
