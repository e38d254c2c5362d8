import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { ValidationReport } from "../../src/domain/ValidationReport.ts"

const decode = Schema.decodeUnknownEffect(ValidationReport)

describe("ValidationReport", () => {
  it.effect("carries the spec's fields and the optional prune section", () =>
    Effect.gen(function*() {
      const report = {
        valid: false,
        model: { valid: true },
        tools: [
          { name: "bash", valid: false, missingContext: ["sandboxId"], error: "Missing required context: sandboxId" },
          {
            name: "jobsite_reply_generator",
            valid: false,
            structureErrors: [{ field: "configData", issues: ["Expected object"] }],
            error: "Invalid context structure: configData"
          },
          { name: "browser", valid: true }
        ],
        prune: { tokensBefore: 120_000, tokensAfter: 79_000, messagesRemoved: 12, stage: "messages" }
      }
      assert.deepStrictEqual(yield* decode(report), report)
    }))

  it.effect.each([
    { model: { valid: true }, tools: [] },
    { valid: true, tools: [] },
    { valid: true, model: { valid: true }, tools: [{ name: "bash" }] },
    { valid: true, model: { valid: true }, tools: [{ name: "bash", valid: true, structureErrors: [{ field: "x" }] }] }
  ])(
    "rejects %j",
    (report) => Effect.map(Effect.flip(decode(report)), (error) => assert.instanceOf(error, Schema.SchemaError))
  )
})
