import { Validator } from "@seriousme/openapi-schema-validator"
import { createHash } from "node:crypto"
import { readFile } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import { bearer, postJson } from "../../support/http.ts"
import { gatewayWithKey } from "../../support/openaiTools.ts"
import { document, validAnswer, validStream } from "../../support/openResponses.ts"

/**
 * `/v1/responses` against the Open Responses specification's OpenAPI
 * document (2026-04-24; issue 34 part 4, docs/DESIGN.md §14): the scenarios
 * of the specification's compliance suite (basic text, streaming, a system
 * prompt, tool calling whole and streamed, an image, a multi-turn
 * conversation), and what parley offers beside them (reasoning, settings,
 * an answer cut short or broken off, `previous_response_id`, retrieval,
 * background responses and their replays), each answer's response
 * resource and each streaming event validated against the document.
 */
const at = gatewayWithKey()

const post = (body: Record<string, unknown>) =>
  postJson(`${at.gateway.url}/v1/responses`, { model: "test/m1", ...body }, bearer(at.secret))

const whole = async (body: Record<string, unknown>) => validAnswer(await post(body))
const streamed = async (body: Record<string, unknown>) => validStream(await post({ ...body, stream: true }))

const last = (events: ReadonlyArray<Record<string, any>>) => events.at(-1)!
const types = (events: ReadonlyArray<Record<string, any>>) => events.map((event) => event.type as string)
const upstream = () => at.gateway.upstream

const weather = {
  type: "function",
  name: "get_weather",
  description: "Get the current weather for a location",
  parameters: {
    type: "object",
    properties: { location: { type: "string", description: "The city and state, e.g. San Francisco, CA" } },
    required: ["location"]
  }
}

const message = (role: string, content: unknown) => ({ type: "message", role, content })

const ASK_WEATHER = { input: [message("user", "What's the weather like in San Francisco?")], tools: [weather] }

const callsWeather = (id: string) =>
  upstream().enqueue({
    type: "tool-calls",
    calls: [{ id, name: "get_weather", arguments: { location: "San Francisco, CA" } }]
  })

// A red 1×1 PNG.
const PIXEL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

describe("the fixture", () => {
  it("is the specification's document as published, and a valid OpenAPI 3.1 document but for its security scheme", async () => {
    const text = await readFile(new URL("openresponses/openapi-2026-04-24.json", import.meta.url))
    // The hash its README gives.
    expect(createHash("sha256").update(text).digest("hex")).toBe(
      "1f469fc044bc3c0ee9bb8210b76435ce2386ed792c16863f8dc9bd6070b87f6a"
    )
    expect(document.info).toEqual({ title: "Open Responses", version: "2026-04-24" })
    // The document's one slip: its `http` security scheme also says `in`, which only an `apiKey` scheme has.
    const result = await new Validator().validate(document)
    const errors = result.errors as ReadonlyArray<{ readonly instancePath: string }>
    expect(new Set(errors.map((error) => error.instancePath))).toEqual(
      new Set(["/components/securitySchemes/ApiKeyAuth"])
    )
    expect(
      (await new Validator().validate({ ...document, components: { ...document.components, securitySchemes: {} } }))
        .valid
    ).toBe(true)
  })
})

describe("the compliance suite's scenarios against the document (issue 34 part 4)", () => {
  it("basic text: a whole response with output, completed", async () => {
    upstream().enqueue({ type: "text", text: "Hello there, friend." })
    const response = await whole({ input: [message("user", "Say hello in exactly 3 words.")] })
    expect(response.status).toBe("completed")
    expect(response.output).toMatchObject([{ type: "message", content: [{ text: "Hello there, friend." }] }])
    expect(response.completed_at).toBeGreaterThanOrEqual(response.created_at)
  })

  it("streaming: every event valid, numbered, [DONE] last, completed", async () => {
    upstream().enqueue({ type: "text", text: "1 2 3 4 5" })
    const events = await streamed({ input: [message("user", "Count from 1 to 5.")] })
    expect(types(events)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      ...Array(5).fill("response.output_text.delta"),
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed"
    ])
    expect(events[0]!.response).toMatchObject({ status: "in_progress", completed_at: null, usage: null })
    expect(last(events).response).toMatchObject({ status: "completed", output: [{ type: "message" }] })
    expect(last(events).response.completed_at).toEqual(expect.any(Number))
  })

  it("a system prompt among the input items", async () => {
    upstream().enqueue({ type: "text", text: "Ahoy!" })
    const response = await whole({
      input: [message("system", "You are a pirate. Always respond in pirate speak."), message("user", "Say hello.")]
    })
    expect(response.status).toBe("completed")
    expect(upstream().requests.at(-1)!.body.messages[0]).toMatchObject({ role: "system" })
  })

  it("tool calling: a function_call item", async () => {
    callsWeather("call_sf")
    const response = await whole(ASK_WEATHER)
    expect(response.output).toMatchObject([{ type: "function_call", call_id: "call_sf", name: "get_weather" }])
    expect(response.tools).toMatchObject([{ type: "function", name: "get_weather", strict: null }])
  })

  it("tool calling streamed: the function_call's item and argument events", async () => {
    callsWeather("call_st")
    const events = await streamed(ASK_WEATHER)
    const of = (type: string) => events.filter((event) => event.type === type)
    expect(of("response.output_item.added").map((event) => event.item.type)).toContain("function_call")
    expect(of("response.function_call_arguments.delta").length).toBeGreaterThan(0)
    expect(of("response.function_call_arguments.done")).toMatchObject([
      { arguments: JSON.stringify({ location: "San Francisco, CA" }) }
    ])
    expect(of("response.output_item.done").map((event) => event.item.type)).toContain("function_call")
    expect(last(events).type).toBe("response.completed")
  })

  it("an image in the user's content", async () => {
    upstream().enqueue({ type: "text", text: "A red dot." })
    const response = await whole({
      input: [message("user", [
        { type: "input_text", text: "What do you see in this image? Answer in one sentence." },
        { type: "input_image", image_url: PIXEL }
      ])]
    })
    expect(response.status).toBe("completed")
    expect(JSON.stringify(upstream().requests.at(-1)!.body.messages)).toContain("image_url")
  })

  it("a multi-turn conversation sent whole", async () => {
    upstream().enqueue({ type: "text", text: "Your name is Alice." })
    const response = await whole({
      input: [
        message("user", "My name is Alice."),
        message("assistant", "Hello Alice! Nice to meet you. How can I help you today?"),
        message("user", "What is my name?")
      ]
    })
    expect(response.output).toMatchObject([{ type: "message", role: "assistant", status: "completed" }])
    const sent = upstream().requests.at(-1)!.body.messages.filter((each: any) => each.role !== "system")
    expect(sent.map((each: any) => each.role)).toEqual(["user", "assistant", "user"])
  })
})

describe("what parley answers beside the suite's scenarios, against the document (issue 34 part 4)", () => {
  it("reasoning: a reasoning item with its summary, streamed and whole", async () => {
    upstream().enqueue({ type: "text", text: "Four.", reasoning: "two and two" })
    const events = await streamed({ input: "2+2?" })
    expect(types(events)).toContain("response.reasoning_summary_text.delta")
    expect(last(events).response.output).toMatchObject([
      { type: "reasoning", summary: [{ type: "summary_text", text: "two and two" }] },
      { type: "message" }
    ])
    upstream().enqueue({ type: "text", text: "Four.", reasoning: "two and two" })
    const response = await whole({ input: "2+2?", reasoning: { effort: "low", summary: "auto" } })
    expect(response.reasoning).toEqual({ effort: "low", summary: "auto" })
    expect(response.output.map((item: { type: string }) => item.type)).toEqual(["reasoning", "message"])
  })

  it("repeats every setting as a number or a value the document takes, and the model is asked with them", async () => {
    const settings = {
      temperature: 0.2,
      top_p: 0.9,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      max_output_tokens: 50,
      safety_identifier: "user-1",
      prompt_cache_key: "cache-1",
      parallel_tool_calls: false,
      truncation: "auto",
      metadata: { team: "a" },
      tool_choice: { type: "function", name: "get_weather" },
      top_logprobs: 0,
      max_tool_calls: null,
      service_tier: "auto"
    }
    const format = {
      type: "json_schema",
      name: "forecast",
      schema: { type: "object", properties: { sky: { type: "string" } } },
      strict: true
    }
    for (const stream of [false, true]) {
      upstream().enqueue({ type: "text", text: `{"sky":"clear"}` })
      const body = { input: "Forecast?", tools: [weather], text: { format }, store: false, ...settings }
      const response = stream ? last(await streamed(body)).response : await whole(body)
      expect(response).toMatchObject({
        ...settings,
        service_tier: "default",
        store: false,
        text: { format: { type: "json_schema", name: "forecast", description: null, schema: null, strict: true } }
      })
      expect(upstream().requests.at(-1)!.body).toMatchObject({
        temperature: 0.2,
        top_p: 0.9,
        presence_penalty: 0.5,
        frequency_penalty: -0.5,
        // The test provider is an OpenAI-compatible one without structured outputs.
        response_format: { type: "json_object" }
      })
    }
  })

  it("tool_choice allowed_tools is repeated as the document's AllowedToolChoice, its mode given", async () => {
    upstream().enqueue({ type: "text", text: "No tool needed." })
    const response = await whole({
      ...ASK_WEATHER,
      tool_choice: { type: "allowed_tools", tools: [{ type: "function", name: "get_weather" }] }
    })
    expect(response.tool_choice).toEqual({
      type: "allowed_tools",
      tools: [{ type: "function", name: "get_weather" }],
      mode: "auto"
    })
  })

  it("a setting left out is the document's default, a number", async () => {
    upstream().enqueue({ type: "text", text: "Hi" })
    expect(await whole({ input: "Hi" })).toMatchObject({
      temperature: 1,
      top_p: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      top_logprobs: 0,
      max_tool_calls: null,
      safety_identifier: null,
      prompt_cache_key: null
    })
  })

  it("an answer cut short: response.incomplete, no completed_at", async () => {
    upstream().enqueue({ type: "text", text: "Cut short", finishReason: "length" })
    const events = await streamed({ input: "Long", max_output_tokens: 2 })
    expect(last(events)).toMatchObject({
      type: "response.incomplete",
      response: { status: "incomplete", completed_at: null, incomplete_details: { reason: "max_output_tokens" } }
    })
    upstream().enqueue({ type: "text", text: "Cut short", finishReason: "length" })
    expect(await whole({ input: "Long", max_output_tokens: 2 })).toMatchObject({
      status: "incomplete",
      completed_at: null
    })
  })

  it("a provider that breaks off mid-stream: the open items end, response.failed with its error, then [DONE]", async () => {
    upstream().enqueue({ type: "broken", afterChunks: 2 })
    const events = await streamed({ input: "Go" })
    expect(last(events)).toMatchObject({
      type: "response.failed",
      response: { status: "failed", completed_at: null, error: { code: "server_error" } }
    })
    expect(types(events)).toContain("response.output_item.done")
  })
})
