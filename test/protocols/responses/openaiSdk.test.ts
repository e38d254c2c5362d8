import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../../support/gateway.ts"
import { weatherFunction as weather } from "../../support/openaiTools.ts"
import { makeTestTool } from "../../support/tools.ts"

let gateway: TestGateway
let client: OpenAI

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" })] })
  const { secret } = await gateway.createKey()
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 })
})
afterAll(() => gateway.close())

describe("POST /v1/responses through the openai SDK (issue 21 part 1)", () => {
  it("answers a whole response with its output and usage, instructions as the system prompt", async () => {
    gateway.upstream.enqueue({
      type: "text",
      text: "Hello there",
      usage: { promptTokens: 7, completionTokens: 2, cachedTokens: 3, reasoningTokens: 1 }
    })
    const response = await client.responses.create({
      model: "test/m1",
      instructions: "Be brief.",
      input: "Hi",
      store: true,
      metadata: { team: "a" }
    })
    expect(response).toMatchObject({
      object: "response",
      status: "completed",
      model: "test/m1",
      store: true,
      metadata: { team: "a" },
      output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Hello there" }] }],
      usage: {
        input_tokens: 7,
        output_tokens: 2,
        total_tokens: 9,
        input_tokens_details: { cached_tokens: 3 },
        output_tokens_details: { reasoning_tokens: 1 }
      }
    })
    expect(response.id).toMatch(/^resp_/)
    expect(response.output_text).toBe("Hello there")
    const sent = gateway.upstream.requests.at(-1)!.body
    expect(sent.messages).toEqual([{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }])
    expect(JSON.stringify(response)).not.toContain(UPSTREAM_API_KEY)
  })

  it("streams the events in order, each numbered, reasoning as a summary", async () => {
    gateway.upstream.enqueue({ type: "text", text: "one two three", reasoning: "thinking hard" })
    const stream = await client.responses.create({
      model: "test/m1",
      input: [{ role: "user", content: [{ type: "input_text", text: "Count" }] }],
      stream: true
    })
    const events: Array<OpenAI.Responses.ResponseStreamEvent> = []
    for await (const event of stream) events.push(event)
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index))
    const types = [...new Set(events.map((event) => event.type))]
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.completed"
    ])
    const text = events.flatMap((event) => event.type === "response.output_text.delta" ? [event.delta] : []).join("")
    expect(text).toBe("one two three")
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent
    expect(completed.response.output.map((item) => item.type)).toEqual(["reasoning", "message"])
    expect(completed.response.output[0]).toMatchObject({ summary: [{ type: "summary_text", text: "thinking hard" }] })
    expect(completed.response.usage?.total_tokens).toBeGreaterThan(0)
  })

  it("gives the SDK's stream helper a final response built from the events", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Built from deltas", reasoning: "first this" })
    const stream = client.responses.stream({ model: "test/m1", input: "Go" })
    let deltas = ""
    stream.on("response.output_text.delta", (event) => (deltas += event.delta))
    const final = await stream.finalResponse()
    expect(deltas).toBe("Built from deltas")
    expect(final.output_text).toBe("Built from deltas")
    expect(final.status).toBe("completed")
  })

  it("tool_choice allowed_tools: the model is offered the allowed function tools alone, in the mode asked", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_a", name: "weather", arguments: { city: "Rome" } }]
    })
    const clock: OpenAI.Responses.FunctionTool = { ...weather, name: "clock" }
    const response = await client.responses.create({
      model: "test/m1",
      input: "Weather in Rome?",
      tools: [weather, clock],
      tool_choice: { type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "weather" }] }
    })
    expect(response.output.find((item) => item.type === "function_call")).toMatchObject({ name: "weather" })
    expect(response.tool_choice).toEqual({
      type: "allowed_tools",
      mode: "required",
      tools: [{ type: "function", name: "weather" }]
    })
    const offered = gateway.upstream.requests.at(-1)!.body
    expect(offered.tools.map((tool: any) => tool.function.name)).toEqual(["weather"])
    expect(offered.tool_choice).toBe("required")

    const unknown = await client.responses.create({
      model: "test/m1",
      input: "x",
      tools: [weather],
      tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "clock" }] }
    }).catch((error) => error)
    expect(unknown).toBeInstanceOf(OpenAI.BadRequestError)
    expect(unknown.error).toMatchObject({ param: "tool_choice.tools[0].name" })
  })

  it("hands a call of the client's tool back as a function_call item, and takes its output in the next request", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_w", name: "weather", arguments: { city: "Oslo" } }]
    })
    const input: Array<OpenAI.Responses.ResponseInputItem> = [{ role: "user", content: "Weather in Oslo?" }]
    const first = await client.responses.create({ model: "test/m1", input, tools: [weather], tool_choice: "required" })
    expect(first.status).toBe("completed")
    const call = first.output.find((item) => item.type === "function_call")!
    expect(call).toMatchObject({
      type: "function_call",
      call_id: "call_w",
      name: "weather",
      arguments: JSON.stringify({ city: "Oslo" })
    })
    const offered = gateway.upstream.requests.at(-1)!.body
    expect(offered.tools.map((tool: any) => tool.function.name)).toEqual(["weather"])
    expect(offered.tool_choice).toBe("required")

    gateway.upstream.enqueue({ type: "text", text: "Sunny" })
    const second = await client.responses.create({
      model: "test/m1",
      tools: [weather],
      input: [...input, ...first.output as Array<OpenAI.Responses.ResponseInputItem>, {
        type: "function_call_output",
        call_id: "call_w",
        output: "sunny, 21 C"
      }]
    })
    expect(second.output_text).toBe("Sunny")
    const sent = gateway.upstream.requests.at(-1)!.body.messages
    expect(sent.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_w" }] })
    expect(sent.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_w", content: "sunny, 21 C" })
  })

  it("streams a client tool's arguments and ends completed", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_s", name: "weather", arguments: { city: "Rome" } }]
    })
    const stream = await client.responses.create({ model: "test/m1", input: "Rome?", tools: [weather], stream: true })
    const events: Array<OpenAI.Responses.ResponseStreamEvent> = []
    for await (const event of stream) events.push(event)
    const done = events.find((event) => event.type === "response.function_call_arguments.done")
    expect(done).toMatchObject({ arguments: JSON.stringify({ city: "Rome" }) })
    expect(events.at(-1)).toMatchObject({ type: "response.completed" })
  })

  it("runs parley's tools named in allowedTools on the server, never as function_call items", async () => {
    gateway.upstream.enqueue({ type: "tool-calls", calls: [{ id: "call_e", name: "echo", arguments: { text: "hi" } }] })
    gateway.upstream.enqueue({ type: "text", text: "Echoed" })
    const response = await client.responses.create({
      model: "test/m1",
      input: "Echo hi",
      // @ts-expect-error parley's server-tool fields ride along as extra body fields
      allowedTools: ["echo"]
    })
    expect(response.output_text).toBe("Echoed")
    expect(response.output.map((item) => item.type)).toEqual(["message"])
    expect(gateway.upstream.requests.at(-1)!.body.messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_e"
    })
  })

  it("says incomplete for max_output_tokens when the model's output limit cut it short", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Cut", finishReason: "length" })
    const response = await client.responses.create({ model: "test/m1", input: "Long", max_output_tokens: 5 })
    expect(response).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } })
    expect(gateway.upstream.requests.at(-1)!.body.max_tokens).toBe(5)
  })

  it("refuses an unknown previous response and a background run that is not stored, naming the field", async () => {
    await expect(client.responses.create({ model: "test/m1", input: "x", previous_response_id: "resp_1" }))
      .rejects.toMatchObject({
        status: 400,
        error: { type: "invalid_request_error", param: "previous_response_id", code: "previous_response_not_found" }
      })
    await expect(client.responses.create({ model: "test/m1", input: "x", background: true, store: false }))
      .rejects.toMatchObject({ status: 400, error: { param: "background" } })
    await expect(client.responses.create({ model: "test/m1", input: "x", mystery: true } as never))
      .rejects.toMatchObject({ status: 400, error: { param: "mystery" } })
  })

  it("gives the Open Responses specification's fields, and reads a stream to its [DONE] (issue 34 part 4)", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Fine" })
    const response = await client.responses.create({
      model: "test/m1",
      input: "Hi",
      temperature: 0.5,
      safety_identifier: "user-1",
      prompt_cache_key: "cache-1",
      // @ts-expect-error the specification's penalties, which the SDK's types leave out
      presence_penalty: 0.25
    })
    expect(response).toMatchObject({
      completed_at: expect.any(Number),
      temperature: 0.5,
      top_p: 1,
      presence_penalty: 0.25,
      frequency_penalty: 0,
      top_logprobs: 0,
      max_tool_calls: null,
      safety_identifier: "user-1",
      prompt_cache_key: "cache-1"
    })
    expect(gateway.upstream.requests.at(-1)!.body).toMatchObject({ temperature: 0.5, presence_penalty: 0.25 })

    // The SDK stops at the [DONE] its Stream knows from Chat Completions; an event it could not parse would throw.
    gateway.upstream.enqueue({ type: "text", text: "Streamed fine" })
    const raw = await client.responses.create({ model: "test/m1", input: "Hi", stream: true }).asResponse()
    expect((await raw.text()).endsWith("\n\ndata: [DONE]\n\n")).toBe(true)
    gateway.upstream.enqueue({ type: "text", text: "Streamed fine" })
    const events: Array<OpenAI.Responses.ResponseStreamEvent> = []
    for await (const event of await client.responses.create({ model: "test/m1", input: "Hi", stream: true })) {
      events.push(event)
    }
    expect(events.at(-1)).toMatchObject({
      type: "response.completed",
      response: { completed_at: expect.any(Number), temperature: 1, top_p: 1 }
    })
    gateway.upstream.enqueue({ type: "text", text: "Streamed fine" })
    const final = await client.responses.stream({ model: "test/m1", input: "Hi" }).finalResponse()
    expect(final).toMatchObject({ output_text: "Streamed fine", completed_at: expect.any(Number) })
  })

  it("gives the SDK's typed errors", async () => {
    const bad = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: "pk_nope", maxRetries: 0 })
    await expect(bad.responses.create({ model: "test/m1", input: "x" })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError
    )
    await expect(client.responses.create({ model: "nope/m", input: "x" })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError
    )
    gateway.upstream.enqueue({
      type: "error",
      status: 400,
      body: { error: { message: `bad request for key ${UPSTREAM_API_KEY}` } }
    })
    const failed = await client.responses.create({ model: "test/m1", input: "x" }).catch((error) => error)
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError)
    expect(JSON.stringify(failed.error)).not.toContain(UPSTREAM_API_KEY)
  })
})

describe("a stream that breaks off on /v1/responses", () => {
  it("ends with response.failed after the text so far", async () => {
    gateway.upstream.enqueue({ type: "broken", afterChunks: 2 })
    const stream = await client.responses.create({ model: "test/m1", input: "Go", stream: true })
    const events: Array<OpenAI.Responses.ResponseStreamEvent> = []
    for await (const event of stream) events.push(event)
    const text = events.flatMap((event) => event.type === "response.output_text.delta" ? [event.delta] : []).join("")
    expect(text.length).toBeGreaterThan(0)
    const last = events.at(-1)!
    expect(last.type).toBe("response.failed")
    const failed = (last as OpenAI.Responses.ResponseFailedEvent).response
    expect(failed).toMatchObject({ status: "failed", error: { code: "server_error" } })
    expect(failed.output[0]).toMatchObject({ type: "message", content: [{ type: "output_text", text }] })
  })
})
