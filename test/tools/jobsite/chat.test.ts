import { Effect } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { ModelRegistry } from "../../../src/models/ModelRegistry.ts"
import { OpenAICompatibleChatModel } from "../../../src/models/openaiCompatible/OpenAICompatibleChatModel.ts"
import { makeJobsiteReplyGenerator } from "../../../src/tools/jobsite/jobsiteReplyGenerator.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../../support/gateway.ts"
import { bearer, chatBody, postJson } from "../../support/http.ts"
import { configData, replyPrompts } from "./fixtures.ts"

let gateway: TestGateway
let secret: string
let requestsBefore = 0

// The tool exists before the gateway (and its upstream URL) does: `test/m2` resolves once both are up.
const models = ModelRegistry.of({
  catalog: [],
  find: (id) =>
    id === "test/m2"
      ? {
        entry: { id, name: "Model Two", categories: ["chat"], provider: "test" },
        model: new OpenAICompatibleChatModel({
          provider: "test",
          baseURL: gateway.upstream.url,
          apiKey: UPSTREAM_API_KEY,
          modelId: "m2"
        })
      }
      : undefined,
  replace: () => Effect.void
})

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeJobsiteReplyGenerator(models)], pricing })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())
beforeEach(() => {
  requestsBefore = gateway.upstream.requests.length
})

const context = { preferredBrand: "Harbor Coffee", configData, replyPrompts }
/** `test/m1`'s price; `test/m2` has none. */
const pricing = { inputPerMTok: 3, outputPerMTok: 15 }

const chat = async (body: Record<string, unknown>, key = secret) => {
  const response = await postJson(
    `${gateway.url}/api/v1/chat`,
    chatBody({ allowedTools: ["jobsite_reply_generator"], ...body }),
    bearer(key)
  )
  return { response, body: await response.json() }
}

/** The model calls the tool; the tool classifies, then writes; the model answers. */
const script = (input: Record<string, unknown>, category: string, reply: string) =>
  gateway.upstream.enqueue(
    { type: "tool-calls", calls: [{ id: "call_1", name: "jobsite_reply_generator", arguments: input }] },
    { type: "text", text: JSON.stringify({ category }) },
    { type: "text", text: reply },
    { type: "text", text: "Reply ready." }
  )

const toolPart = (body: any) =>
  body.data.messages.at(-1).parts.find((part: { type: string }) => part.type === "dynamic-tool")

/** The tool's own model calls, in order: classification, then the reply. */
const toolRequests = () =>
  gateway.upstream.requests.slice(requestsBefore + 1, requestsBefore + 3).map((request) => request.body)

const systemOf = (request: any): string => request.messages.find((m: { role: string }) => m.role === "system").content

describe("jobsite_reply_generator through /chat", () => {
  it("classifies with a structured call and answers from the preferred brand's facts", async () => {
    script({ message: "How much does it pay?" }, "pay", "Barista pays 26 CNY per hour, Shift Lead 32 CNY per hour.")
    const { body, response } = await chat({ context })
    expect(response.status).toBe(200)
    expect(toolPart(body)).toMatchObject({
      state: "output-available",
      output: {
        reply: "Barista pays 26 CNY per hour, Shift Lead 32 CNY per hour.",
        category: "pay",
        brand: "Harbor Coffee",
        facts: [
          "Brand: Harbor Coffee — Specialty coffee bars.",
          "Barista (Riverside): pay 26 CNY per hour",
          "Shift Lead (Old Town): pay 32 CNY per hour"
        ]
      }
    })
    const [classification, reply] = toolRequests()
    expect(classification.model).toBe("m1")
    // This provider takes no JSON Schema (json_object mode), so the instructions name the categories and the form.
    expect(classification.response_format).toEqual({ type: "json_object" })
    expect(systemOf(classification)).toContain("- interviewBooking: booking, attending or preparing an interview")
    expect(systemOf(classification)).toContain("Answer with JSON only, of the form {\"category\": \"pay\"}.")
    expect(classification.messages.at(-1).content).toContain("How much does it pay?")
    const system = systemOf(reply)
    expect(system).toContain(replyPrompts.generalInstruction)
    expect(system).toContain("Quote the pay for Barista, Shift Lead at Harbor Coffee exactly as listed.")
    expect(system).not.toContain("7500")
    expect(reply.messages.at(-1)).toEqual({ role: "user", content: "How much does it pay?" })
    expect(body.data.messages.at(-1).parts.at(-1)).toMatchObject({ type: "text", text: "Reply ready." })
  })

  it("takes the input's brand over preferredBrand, and the history into account", async () => {
    script(
      {
        message: "And the pay?",
        brand: "Lumen Bakery",
        history: [{ role: "candidate", text: "Do you hire bakers?" }, { role: "recruiter", text: "Yes!" }]
      },
      "pay",
      "Bakers earn 7500 CNY per month."
    )
    const { body } = await chat({ context })
    expect(toolPart(body).output).toMatchObject({
      brand: "Lumen Bakery",
      facts: ["Brand: Lumen Bakery", "Baker (Central): pay 7500 CNY per month"]
    })
    const [classification, reply] = toolRequests()
    expect(classification.messages.at(-1).content).toContain("Candidate: Do you hire bakers?\nRecruiter: Yes!")
    expect(reply.messages.slice(-3)).toEqual([
      { role: "user", content: "Do you hire bakers?" },
      { role: "assistant", content: "Yes!" },
      { role: "user", content: "And the pay?" }
    ])
    expect(systemOf(reply)).not.toContain("26 CNY")
  })

  it("replaces a reply that states a figure the facts lack by the check-back reply", async () => {
    script(
      { message: "What does a barista earn?", position: "Barista" },
      "pay",
      "Baristas earn 30 CNY per hour plus a 200 CNY bonus."
    )
    const { body } = await chat({ context })
    expect(toolPart(body).output).toMatchObject({ reply: replyPrompts.checkBackReply, category: "pay" })
  })

  it("tells the model what configData lacks, so the reply offers to check", async () => {
    script(
      { message: "What benefits does a shift lead get?", position: "Shift Lead" },
      "benefits",
      "Let me check the benefits and get back to you."
    )
    const { body } = await chat({ context })
    expect(toolPart(body).output).toMatchObject({
      reply: "Let me check the benefits and get back to you.",
      category: "benefits",
      facts: ["Brand: Harbor Coffee — Specialty coffee bars."]
    })
    expect(systemOf(toolRequests()[1])).toContain(
      "The configuration does not say anything about:\n- benefits of Shift Lead"
    )
  })

  it("writes with context.modelConfig's model when the key allows it, and refuses it otherwise", async () => {
    script({ message: "Hello!" }, "firstContact", "Hi! Harbor Coffee is hiring baristas and shift leads.")
    const { body } = await chat({ context: { ...context, modelConfig: { replyModel: "test/m2" } } })
    expect(toolPart(body).state).toBe("output-available")
    expect(toolRequests().map((request) => request.model)).toEqual(["m1", "m2"])

    const { secret: narrow } = await gateway.createKey({ models: ["test/m1"] })
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "call_1", name: "jobsite_reply_generator", arguments: { message: "Hello!" } }]
      },
      { type: "text", text: "Sorry." }
    )
    const refused = await chat({ context: { ...context, modelConfig: { replyModel: "test/m2" } } }, narrow)
    expect(toolPart(refused.body)).toMatchObject({
      state: "output-error",
      errorText: "ToolFailure: context.modelConfig.replyModel names a model your API key may not use: test/m2"
    })
  })

  it("counts the tool's own model calls in the request's ledger row, each at its model's price, not in data.usage", async () => {
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "call_1", name: "jobsite_reply_generator", arguments: { message: "How much does it pay?" } }],
        usage: { promptTokens: 100, completionTokens: 10 }
      },
      { type: "text", text: JSON.stringify({ category: "pay" }), usage: { promptTokens: 50, completionTokens: 5 } },
      {
        type: "text",
        text: "Barista pays 26 CNY per hour.",
        usage: { promptTokens: 60, completionTokens: 6, cachedTokens: 3, reasoningTokens: 2 }
      },
      { type: "text", text: "Reply ready.", usage: { promptTokens: 120, completionTokens: 4 } }
    )
    const { body, response } = await chat({ context: { ...context, modelConfig: { replyModel: "test/m2" } } })
    expect(toolPart(body).state).toBe("output-available")
    expect(body.data.usage).toMatchObject({ inputTokens: 220, outputTokens: 14, totalTokens: 234 })

    const correlationId = response.headers.get("x-correlation-id")
    const row = (await gateway.ledgerRows()).find((event) => event.correlationId === correlationId)
    expect(row).toMatchObject({
      model: "test/m1",
      inputTokens: 330,
      outputTokens: 25,
      totalTokens: 355,
      reasoningTokens: 2,
      cachedInputTokens: 3,
      toolCalls: { jobsite_reply_generator: 1 },
      steps: 2
    })
    // The agent's two calls and the classification ran on test/m1; the reply on test/m2, which has no price.
    expect(row?.costUsd).toBeCloseTo(((100 + 120 + 50) * 3 + (10 + 4 + 5) * 15) / 1_000_000, 12)
  })

  it("counts a classification the model answered in the wrong form, as it cost tokens", async () => {
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "call_1", name: "jobsite_reply_generator", arguments: { message: "Hi" } }],
        usage: { promptTokens: 100, completionTokens: 10 }
      },
      { type: "text", text: JSON.stringify({ category: "salary" }), usage: { promptTokens: 40, completionTokens: 9 } },
      { type: "text", text: "Could not classify.", usage: { promptTokens: 20, completionTokens: 3 } }
    )
    const { body, response } = await chat({ context })
    expect(toolPart(body).state).toBe("output-error")
    const correlationId = response.headers.get("x-correlation-id")
    const row = (await gateway.ledgerRows()).find((event) => event.correlationId === correlationId)
    expect(row).toMatchObject({ inputTokens: 160, outputTokens: 22, toolCalls: { jobsite_reply_generator: 1 } })
  })

  it("reports an unknown brand and a failed classification to the model as tool errors", async () => {
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "call_1", name: "jobsite_reply_generator", arguments: { message: "Hi", brand: "Acme" } }]
      },
      { type: "text", text: "Which brand?" }
    )
    const unknown = await chat({ context })
    expect(toolPart(unknown.body).errorText).toBe(
      "ToolFailure: Unknown brand \"Acme\". configData lists: Harbor Coffee, Lumen Bakery."
    )

    gateway.upstream.enqueue(
      { type: "tool-calls", calls: [{ id: "call_1", name: "jobsite_reply_generator", arguments: { message: "Hi" } }] },
      { type: "text", text: JSON.stringify({ category: "salary" }) },
      { type: "text", text: "Could not classify." }
    )
    const misclassified = await chat({ context })
    expect(toolPart(misclassified.body).errorText).toBe(
      "ToolFailure: The model did not classify the message in the expected form."
    )
  })
})

describe("context validation (validateOnly)", () => {
  const report = async (body: Record<string, unknown>) => {
    const { response, body: json } = await chat({ validateOnly: true, ...body })
    expect(response.status).toBe(200)
    return json.tools[0]
  }

  it("reports missing configData and replyPrompts", async () => {
    expect(await report({ context: {} })).toMatchObject({
      name: "jobsite_reply_generator",
      valid: false,
      missingContext: ["configData", "replyPrompts"]
    })
  })

  it("reports structure errors with the field and the issue's path", async () => {
    const badPrompts = { ...replyPrompts, templates: { pay: "Say {{salary}}" } }
    const badConfig = { brands: [{ name: "Acme", stores: [] }] }
    const tool = await report({ context: { configData: badConfig, replyPrompts: badPrompts } })
    expect(tool.valid).toBe(false)
    expect(tool.structureErrors).toEqual([
      {
        field: "configData",
        issues: ["Expected a value with a length of at least 1", "  at [\"brands\"][0][\"stores\"]"]
      },
      {
        field: "replyPrompts",
        issues: [
          "Unknown placeholder {{salary}}; known: {{brand}}, {{positions}}, {{stores}}, {{facts}}",
          "  at [\"templates\"][\"pay\"]"
        ]
      }
    ])
  })

  it("lets toolContext override context for this tool", async () => {
    const tool = await report({
      context: { configData: { brands: "none" }, replyPrompts },
      toolContext: { jobsite_reply_generator: { configData } }
    })
    expect(tool).toEqual({ name: "jobsite_reply_generator", valid: true })
  })

  it("answers 400 with the structure errors under contextStrategy=error", async () => {
    const { response, body } = await chat({ context: { configData: { brands: [] }, replyPrompts } })
    expect(response.status).toBe(400)
    expect(body.details).toMatchObject({
      tools: ["jobsite_reply_generator"],
      strategy: "error",
      structureErrors: [{ field: "configData" }]
    })
  })
})

describe("catalog", () => {
  const get = async (path: string) => (await fetch(`${gateway.url}/api/v1${path}`, { headers: bearer(secret) })).json()

  it("lists the tool with its context and promptTypes", async () => {
    const { data } = await get("/tools")
    expect(data.tools).toEqual([{
      name: "jobsite_reply_generator",
      description: expect.stringContaining("job candidate"),
      category: "business",
      requiresSandbox: false,
      requiredContext: ["configData", "replyPrompts"],
      promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"]
    }])
  })

  it("publishes the real structures of configData and replyPrompts in /config-schema", async () => {
    const { data } = await get("/config-schema")
    const { configData: config, replyPrompts: prompts } = data.context.properties
    expect(config.required).toEqual(["brands"])
    expect(config.properties.brands.items.properties.stores.items.required).toEqual([
      "name",
      "city",
      "district",
      "address",
      "positions"
    ])
    expect(Object.keys(prompts.properties.templates.properties)).toEqual([
      "firstContact",
      "pay",
      "location",
      "schedule",
      "requirements",
      "benefits",
      "interviewBooking",
      "offTopic"
    ])
  })
})
