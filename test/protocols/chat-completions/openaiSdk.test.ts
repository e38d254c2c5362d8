import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../../support/gateway.ts"
import { makeTestTool } from "../../support/tools.ts"

let gateway: TestGateway
let client: OpenAI

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" })] })
  const { secret } = await gateway.createKey()
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 })
})
afterAll(() => gateway.close())

describe("POST /v1/chat/completions through the openai SDK (issue 20 part 2)", () => {
  it("answers a whole chat.completion with usage", async () => {
    gateway.upstream.enqueue({
      type: "text",
      text: "Hello there",
      usage: { promptTokens: 7, completionTokens: 2, cachedTokens: 3 }
    })
    const completion = await client.chat.completions.create({
      model: "test/m1",
      messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }]
    })
    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "test/m1",
      choices: [{ index: 0, message: { role: "assistant", content: "Hello there" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9, prompt_tokens_details: { cached_tokens: 3 } }
    })
    const sent = gateway.upstream.requests.at(-1)!
    expect(sent.body.messages[0]).toMatchObject({ role: "system", content: "Be brief." })
    expect(JSON.stringify(completion)).not.toContain(UPSTREAM_API_KEY)
  })

  it("streams chunks, the usage chunk and the end", async () => {
    gateway.upstream.enqueue({ type: "text", text: "one two three", reasoning: "thinking hard" })
    const stream = await client.chat.completions.create({
      model: "test/m1",
      messages: [{ role: "user", content: "Count" }],
      stream: true,
      stream_options: { include_usage: true }
    })
    let text = ""
    let reasoning = ""
    const finishes: Array<string | null> = []
    let usage: OpenAI.CompletionUsage | undefined | null
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk")
      for (const choice of chunk.choices) {
        text += choice.delta.content ?? ""
        reasoning += (choice.delta as { reasoning_content?: string }).reasoning_content ?? ""
        if (choice.finish_reason !== null) finishes.push(choice.finish_reason)
      }
      if (chunk.usage) usage = chunk.usage
    }
    expect(text).toBe("one two three")
    expect(reasoning).toBe("thinking hard")
    expect(finishes).toEqual(["stop"])
    expect(usage?.total_tokens).toBeGreaterThan(0)
  })

  it("hands a call of the client's tool back as tool_calls, and takes its result in the next request", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_w", name: "weather", arguments: { city: "Oslo" } }]
    })
    const tools: Array<OpenAI.ChatCompletionTool> = [{
      type: "function",
      function: { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } }
    }]
    const messages: Array<OpenAI.ChatCompletionMessageParam> = [{ role: "user", content: "Weather in Oslo?" }]
    const first = await client.chat.completions.create({ model: "test/m1", messages, tools })
    const choice = first.choices[0]!
    expect(choice.finish_reason).toBe("tool_calls")
    expect(choice.message.content).toBeNull()
    expect(choice.message.tool_calls).toEqual([
      { id: "call_w", type: "function", function: { name: "weather", arguments: JSON.stringify({ city: "Oslo" }) } }
    ])
    const offered = gateway.upstream.requests.at(-1)!.body.tools
    expect(offered.map((tool: any) => tool.function.name)).toEqual(["weather"])

    gateway.upstream.enqueue({ type: "text", text: "Sunny" })
    const second = await client.chat.completions.create({
      model: "test/m1",
      tools,
      messages: [...messages, choice.message, { role: "tool", tool_call_id: "call_w", content: "sunny, 21 C" }]
    })
    expect(second.choices[0]!.message.content).toBe("Sunny")
    const sent = gateway.upstream.requests.at(-1)!.body.messages
    expect(sent.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_w" }] })
    expect(sent.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_w", content: "sunny, 21 C" })
  })

  it("runs parley's tools named in allowedTools on the server, never as tool_calls", async () => {
    gateway.upstream.enqueue({ type: "tool-calls", calls: [{ id: "call_e", name: "echo", arguments: { text: "hi" } }] })
    gateway.upstream.enqueue({ type: "text", text: "Echoed" })
    const completion = await client.chat.completions.create({
      model: "test/m1",
      messages: [{ role: "user", content: "Echo hi" }],
      // @ts-expect-error parley's server-tool fields ride along as extra body fields
      allowedTools: ["echo"]
    })
    expect(completion.choices[0]).toMatchObject({ message: { content: "Echoed" }, finish_reason: "stop" })
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined()
    const followUp = gateway.upstream.requests.at(-1)!.body.messages
    expect(followUp.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_e" })
  })

  it("answers a documented field parley cannot honour, and an unknown one, with BadRequestError naming it", async () => {
    const asked = (body: Record<string, unknown>) =>
      client.chat.completions.create({ model: "test/m1", messages: [{ role: "user", content: "x" }], ...body } as never)
    await expect(asked({ n: 2 })).rejects.toMatchObject({
      status: 400,
      constructor: OpenAI.BadRequestError,
      error: { type: "invalid_request_error", param: "n" }
    })
    await expect(asked({ mystery: true })).rejects.toMatchObject({ status: 400, error: { param: "mystery" } })
  })

  it("gives the SDK's typed errors", async () => {
    const bad = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: "pk_nope", maxRetries: 0 })
    await expect(bad.chat.completions.create({ model: "test/m1", messages: [{ role: "user", content: "x" }] }))
      .rejects.toBeInstanceOf(OpenAI.AuthenticationError)
    await expect(client.chat.completions.create({ model: "nope/m", messages: [{ role: "user", content: "x" }] }))
      .rejects.toBeInstanceOf(OpenAI.BadRequestError)
  })
})

describe("a stream that breaks off on /v1/chat/completions", () => {
  it("ends with an error event the SDK raises, after the text so far", async () => {
    gateway.upstream.enqueue({ type: "broken", afterChunks: 2 })
    const stream = await client.chat.completions.create({
      model: "test/m1",
      messages: [{ role: "user", content: "Go" }],
      stream: true
    })
    let text = ""
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ""
    })().catch((e: unknown) => e)
    expect(text.length).toBeGreaterThan(0)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect(String((error as Error).message)).toContain("test")
  })
})
