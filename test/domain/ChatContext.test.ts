import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { ConfigSchemaResponse } from "../../src/domain/Catalog.ts"
import { ChatContext, configSchemaDocument } from "../../src/domain/ChatContext.ts"

const decode = Schema.decodeUnknownEffect(ChatContext)

describe("ChatContext", () => {
  it.effect("keeps the spec's fields and any extra ones tools define", () =>
    Effect.gen(function*() {
      const context = {
        preferredBrand: "Acme",
        modelConfig: { openai: { temperature: 0 } },
        configData: { city: "Oslo" },
        systemPrompts: { bossJobsiteSystemPrompt: "You recruit." },
        replyPrompts: { greeting: "Hi" },
        partnerToken: null,
        defaultMessengerId: "acct-1",
        workspaceUrl: "https://chat.example.com",
        limits: [1, 2]
      }
      assert.deepStrictEqual(yield* decode(context), context)
    }))

  it.effect.each([
    { systemPrompts: { a: 1 } },
    { preferredBrand: 7 },
    { partnerToken: 5 },
    { configData: "text" },
    { modelConfig: [] }
  ])(
    "rejects %j",
    (context) => Effect.map(Effect.flip(decode(context)), (error) => assert.instanceOf(error, Schema.SchemaError))
  )
})

describe("configSchemaDocument", () => {
  const document = configSchemaDocument()

  it("has the shape GET /config-schema answers with", () => {
    assert.doesNotThrow(() => Schema.decodeUnknownSync(ConfigSchemaResponse)({ success: true, data: document }))
    assert.deepInclude(document.sandboxId, { type: "string", required: false })
    assert.deepInclude(document.toolContext, { type: "object", required: false })
    assert.match(document.sandboxId.description, /sandbox/)
    assert.match(document.toolContext.description, /tool name/)
  })

  it("describes every context field and allows extra ones", () => {
    const properties = document.context["properties"] as Record<string, { description?: string }>
    assert.sameMembers(Object.keys(properties), [
      "preferredBrand",
      "modelConfig",
      "configData",
      "systemPrompts",
      "replyPrompts",
      "partnerToken",
      "defaultMessengerId"
    ])
    for (const [field, schema] of Object.entries(properties)) {
      assert.isString(schema.description, `${field} has a description`)
    }
    assert.deepInclude<unknown>(properties["systemPrompts"], {
      type: "object",
      additionalProperties: { type: "string" }
    })
    assert.strictEqual(document.context["type"], "object")
    assert.notProperty(document.context, "required")
  })
})
