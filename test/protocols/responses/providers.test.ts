import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Upstream } from "../../../src/demo/upstream/types.ts"
import { weatherFunction as weather } from "../../support/openaiTools.ts"
import { THINKING_SIGNATURE } from "../../support/upstreams/anthropic.ts"
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

const png =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

describe("an Anthropic model behind /v1/responses (issue 21 part 5)", () => {
  it("answers text with its signed thinking as a reasoning item, usage with cached tokens, and takes it back", async () => {
    anthropic.enqueue({
      type: "text",
      text: "Hello from Claude.",
      reasoning: "Greet back.",
      usage: { input: 70, output: 12, cached: 32, reasoning: 5 }
    })
    const response = await client.responses.create({
      model: "claude/sonnet",
      instructions: "Be kind.",
      input: "Hi",
      reasoning: { effort: "low", summary: "auto" },
      include: ["reasoning.encrypted_content"]
    })
    expect(response.output).toMatchObject([
      {
        type: "reasoning",
        summary: [{ type: "summary_text", text: "Greet back." }],
        encrypted_content: expect.any(String)
      },
      { type: "message", content: [{ type: "output_text", text: "Hello from Claude." }] }
    ])
    expect(response.usage).toMatchObject({
      input_tokens: 70,
      output_tokens: 12,
      input_tokens_details: { cached_tokens: 32 },
      output_tokens_details: { reasoning_tokens: 5 }
    })
    expect(anthropic.requests.at(-1)!.body.system).toEqual([{ type: "text", text: "Be kind." }])

    // The client sends the reasoning back as it came; Anthropic gets its own signed thinking block.
    anthropic.enqueue({ type: "text", text: "Again." })
    await client.responses.create({
      model: "claude/sonnet",
      reasoning: { effort: "low" },
      input: [
        { role: "user", content: "Hi" },
        ...response.output as Array<OpenAI.Responses.ResponseInputItem>,
        { role: "user", content: "Once more" }
      ]
    })
    const sent = anthropic.requests.at(-1)!.body.messages
    expect(sent[1].content[0]).toEqual({ type: "thinking", thinking: "Greet back.", signature: THINKING_SIGNATURE })
  })

  it("streams a tool_use as a function_call item, takes its output as tool_result, and images as image blocks", async () => {
    anthropic.enqueue({ type: "tool-calls", calls: [{ id: "toolu_1", name: "weather", arguments: { city: "Oslo" } }] })
    const input: Array<OpenAI.Responses.ResponseInputItem> = [{
      role: "user",
      content: [{ type: "input_text", text: "Weather where this is?" }, {
        type: "input_image",
        image_url: png,
        detail: "auto"
      }]
    }]
    const stream = await client.responses.create({ model: "claude/sonnet", input, tools: [weather], stream: true })
    let completed: OpenAI.Responses.Response | undefined
    for await (const event of stream) if (event.type === "response.completed") completed = event.response
    const call = completed!.output.find((item) => item.type === "function_call")
    expect(call).toMatchObject({ call_id: "toolu_1", name: "weather", arguments: JSON.stringify({ city: "Oslo" }) })
    expect(anthropic.requests.at(-1)!.body.messages[0].content[1]).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png" }
    })

    anthropic.enqueue({ type: "text", text: "Sunny.", length: true })
    const next = await client.responses.create({
      model: "claude/sonnet",
      tools: [weather],
      input: [...input, call as OpenAI.Responses.ResponseFunctionToolCall, {
        type: "function_call_output",
        call_id: "toolu_1",
        output: "sunny"
      }]
    })
    expect(next).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } })
    expect(next.output_text).toBe("Sunny.")
    const sent = anthropic.requests.at(-1)!.body.messages
    expect(sent.at(-2).content).toContainEqual(
      expect.objectContaining({ type: "tool_use", id: "toolu_1", name: "weather" })
    )
    expect(sent.at(-1).content).toContainEqual(expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_1" }))
  })
})

describe("an OpenAI model behind /v1/responses (issue 21 part 5)", () => {
  it("answers text with usage and cached tokens, and hands back function calls", async () => {
    openai.enqueue({
      type: "text",
      text: "Hi from GPT.",
      usage: { promptTokens: 40, completionTokens: 4, cachedTokens: 16 }
    })
    const response = await client.responses.create({ model: "oa/gpt", input: "Hi" })
    expect(response.output_text).toBe("Hi from GPT.")
    expect(response.usage).toMatchObject({
      input_tokens: 40,
      output_tokens: 4,
      input_tokens_details: { cached_tokens: 16 }
    })

    openai.enqueue({ type: "tool-calls", calls: [{ id: "call_9", name: "weather", arguments: { city: "Rome" } }] })
    const called = await client.responses.create({
      model: "oa/gpt",
      input: "Weather in Rome?",
      tools: [weather],
      tool_choice: "required"
    })
    expect(called.output).toMatchObject([{ type: "function_call", call_id: "call_9", name: "weather" }])
    expect(openai.requests.at(-1)!.body.tool_choice).toBe("required")
  })
})
