import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

const tools = [
  makeTestTool({ name: "echo" }),
  makeTestTool({
    name: "jobsite_reply_generator",
    requiredContext: [{ field: "configData", schema: Schema.Struct({ brands: Schema.Array(Schema.String) }) }, {
      field: "replyPrompts"
    }],
    promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"]
  }),
  makeTestTool({
    name: "chat_message",
    requiredContext: [{ field: "partnerToken" }, { field: "defaultMessengerId" }],
    promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"]
  }),
  makeTestTool({
    name: "bash",
    requiresSandbox: true,
    promptTypes: ["bossJobsiteSystemPrompt", "generalComputerSystemPrompt"]
  })
]
const jobsiteContext = { configData: { brands: ["Acme"] }, replyPrompts: { general: "Be kind" } }

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ tools })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const chat = async (body: unknown, key = secret) => {
  const response = await postJson(`${gateway.url}/api/v1/chat`, body, bearer(key))
  return { response, body: await response.json() }
}

const expectError = (result: { response: Response; body: any }, status: number, error: string) => {
  expect(result.response.status).toBe(status)
  expect(result.body).toMatchObject({ error, statusCode: status })
  expect(result.body.correlationId).toBeTruthy()
  expect(result.response.headers.get("x-correlation-id")).toBe(result.body.correlationId)
}

describe("rule 1 and 2: shape and model", () => {
  it("400 for missing model, missing messages, messages not an array", async () => {
    for (const body of [{ messages: [] }, { model: "test/m1" }, { model: "test/m1", messages: "hi" }, [], null, 42]) {
      const result = await chat(body)
      expectError(result, 400, "BadRequest")
      expect(typeof result.body.details.error).toBe("string")
    }
  })

  it("400 for a conversation with no messages (a report needs none)", async () => {
    const result = await chat(chatBody({ messages: [] }))
    expectError(result, 400, "BadRequest")
    expect(result.body.message).toContain("at least one message")
    expect((await chat(chatBody({ messages: [], validateOnly: true }))).response.status).toBe(200)
  })

  it("400 for a model not in <provider>/<model> form", async () => {
    for (const model of ["m1", "/m1", "test/", "", "te st/m1"]) {
      const result = await chat(chatBody({ model }))
      expectError(result, 400, "BadRequest")
    }
  })

  it("403 for a model outside the key's allow-list, naming it in details", async () => {
    const { secret: narrow } = await gateway.createKey({ models: ["test/m2"] })
    const result = await chat(chatBody(), narrow)
    expectError(result, 403, "Forbidden")
    expect(result.body.message).toBe("Model not available with your API key")
    expect(result.body.details).toEqual({ model: "test/m1" })
    // Fields that look like allow-lists or keys are unknown fields (docs/DESIGN.md §3.16): refused, they change nothing.
    const sneaky = await chat(chatBody({ allowedModels: ["*"], apiKey: secret, key: { allowedModels: ["*"] } }), narrow)
    expectError(sneaky, 400, "BadRequest")
    expect(sneaky.body.details.error).toContain(`"allowedModels" is not a known field`)
    expect(gateway.upstream.requests.length).toBe(0)
  })

  it("400 for an allowed but unknown model", async () => {
    const result = await chat(chatBody({ model: "test/nope" }))
    expectError(result, 400, "BadRequest")
    expect(result.body.details.model).toBe("test/nope")
  })

  it("400 for malformed JSON and 413 over the body limit", async () => {
    const malformed = await chat("{\"model\":")
    expectError(malformed, 400, "BadRequest")
    expect(malformed.body.message).toMatch(/^Malformed JSON body/)
    const small = await startGateway({ bodyLimitBytes: 1024 })
    try {
      const key = await small.createKey()
      const big = chatBody({ messages: [{ role: "user", content: "x".repeat(4096) }] })
      const response = await postJson(`${small.url}/api/v1/chat`, big, bearer(key.secret))
      expect(response.status).toBe(413)
      expect((await response.json()).error).toBe("PayloadTooLarge")
    } finally {
      await small.close()
    }
  })
})

describe("tools: allow-list, promptType, context", () => {
  it("403 for a tool outside the key's allow-list, also via a promptType set", async () => {
    const { secret: narrow } = await gateway.createKey({ tools: ["echo"] })
    const direct = await chat(chatBody({ allowedTools: ["bash"], sandboxId: "sb" }), narrow)
    expectError(direct, 403, "Forbidden")
    expect(direct.body.message).toBe("Tool not available with your API key: bash")
    const viaPromptType = await chat(chatBody({ promptType: "generalComputerSystemPrompt", sandboxId: "sb" }), narrow)
    expectError(viaPromptType, 403, "Forbidden")
  })

  it("400 listing the allowed values for an invalid promptType", async () => {
    const result = await chat(chatBody({ promptType: "nope" }))
    expectError(result, 400, "BadRequest")
    expect(result.body.message).toContain("generalComputerSystemPrompt")
  })

  it("400 with missingContext, tools and strategy under contextStrategy=error", async () => {
    const result = await chat(
      chatBody({ promptType: "bossJobsiteLocalSystemPrompt", context: { configData: { brands: [] } } })
    )
    expectError(result, 400, "BadRequest")
    expect(result.body.message).toBe("Missing required context: replyPrompts, partnerToken, defaultMessengerId")
    expect(result.body.details).toMatchObject({
      error: result.body.message,
      missingContext: ["replyPrompts", "partnerToken", "defaultMessengerId"],
      tools: ["jobsite_reply_generator", "chat_message"],
      strategy: "error"
    })
  })

  it("reports structure errors per field", async () => {
    const result = await chat(
      chatBody({
        allowedTools: ["jobsite_reply_generator"],
        context: { configData: { brands: "Acme" }, replyPrompts: {} }
      })
    )
    expectError(result, 400, "BadRequest")
    expect(result.body.details.structureErrors[0].field).toBe("configData")
  })

  it("a sandbox tool without sandboxId reports sandboxId missing (rule 8)", async () => {
    const result = await chat(chatBody({ allowedTools: ["bash"] }))
    expectError(result, 400, "BadRequest")
    expect(result.body.details.missingContext).toEqual(["sandboxId"])
  })

  it("toolContext overrides context for its tool (rule 9)", async () => {
    const result = await chat(chatBody({
      allowedTools: ["chat_message"],
      validateOnly: true,
      context: { partnerToken: null, defaultMessengerId: "m-1" },
      toolContext: { chat_message: { partnerToken: "tok" } }
    }))
    expect(result.response.status).toBe(200)
    expect(result.body.tools).toEqual([{ name: "chat_message", valid: true }])
  })
})

describe("validateOnly and contextStrategy=report (rules 6, 7)", () => {
  it("returns a ValidationReport and runs nothing", async () => {
    const before = gateway.upstream.requests.length
    for (const flags of [{ validateOnly: true }, { contextStrategy: "report" }]) {
      const result = await chat(
        chatBody({ ...flags, promptType: "bossJobsiteLocalSystemPrompt", context: jobsiteContext })
      )
      expect(result.response.status).toBe(200)
      expect(result.response.headers.get("x-correlation-id")).toBeTruthy()
      expect(result.body).toEqual({
        valid: false,
        model: { valid: true },
        tools: [
          { name: "jobsite_reply_generator", valid: true },
          {
            name: "chat_message",
            valid: false,
            missingContext: ["partnerToken", "defaultMessengerId"],
            error: "Missing required context: partnerToken, defaultMessengerId"
          }
        ]
      })
    }
    expect(gateway.upstream.requests.length).toBe(before)
  })

  it("reports a model the key may not use instead of failing", async () => {
    const { secret: narrow } = await gateway.createKey({ models: ["test/m2"], tools: [] })
    const result = await chat(chatBody({ validateOnly: true, allowedTools: ["echo"] }), narrow)
    expect(result.response.status).toBe(200)
    expect(result.body.valid).toBe(false)
    expect(result.body.model).toEqual({ valid: false, error: "Model not available with your API key" })
    expect(result.body.tools).toEqual([{
      name: "echo",
      valid: false,
      error: "Tool not available with your API key: echo"
    }])
  })
})

describe("unknown fields (docs/DESIGN.md §3.16)", () => {
  it("a misspelled field is a 400 naming it and the field meant, and nothing runs", async () => {
    const before = gateway.upstream.requests.length
    const result = await chat({ ...chatBody(), stream: undefined, strem: false })
    expectError(result, 400, "BadRequest")
    expect(result.body.message).toBe(`Invalid request: "strem" is not a known field (did you mean "stream"?)`)
    expect(result.body.details).toEqual({ error: `"strem" is not a known field (did you mean "stream"?)` })
    expect(gateway.upstream.requests.length).toBe(before)
  })

  it("lists every unknown field, in pruneOptions too, before what they leave missing", async () => {
    const result = await chat({
      model: "test/m1",
      mesages: [{ role: "user", content: "hi" }],
      prune: true,
      pruneOptions: { maxTokens: 100, targetToken: 50 },
      somethingElse: 1
    })
    expectError(result, 400, "BadRequest")
    expect(result.body.details.error).toBe([
      `"mesages" is not a known field (did you mean "messages"?)`,
      `"somethingElse" is not a known field`,
      `"pruneOptions.maxTokens" is not a known field`,
      `"pruneOptions.targetToken" is not a known field (did you mean "targetTokens"?)`,
      `"messages" is required`
    ].join("; "))
  })

  it("validateOnly does not call a body with a misspelled field valid", async () => {
    const result = await chat(chatBody({ validateOnly: true, allowedTool: ["echo"] }))
    expectError(result, 400, "BadRequest")
    expect(result.body.message).toBe(
      `Invalid request: "allowedTool" is not a known field (did you mean "allowedTools"?)`
    )
  })

  it("accepts and ignores what AI SDK chat transports add: id, trigger, messageId, metadata", async () => {
    gateway.upstream.enqueue({ type: "text", text: "ok" })
    const result = await chat(
      chatBody({ id: "chat-1", trigger: "submit-message", messageId: "m-1", metadata: { page: "home" } })
    )
    expect(result.response.status).toBe(200)
    expect(result.body.success).toBe(true)
  })
})

describe("correlation ids", () => {
  it("echoes a safe client id and replaces an unsafe one", async () => {
    const echoed = await postJson(`${gateway.url}/api/v1/chat`, { model: "x" }, {
      ...bearer(secret),
      "x-correlation-id": "client-42"
    })
    expect(echoed.headers.get("x-correlation-id")).toBe("client-42")
    expect((await echoed.json()).correlationId).toBe("client-42")
    const replaced = await postJson(`${gateway.url}/api/v1/chat`, { model: "x" }, {
      ...bearer(secret),
      "x-correlation-id": "bad id<>"
    })
    expect(replaced.headers.get("x-correlation-id")).not.toBe("bad id<>")
  })
})
