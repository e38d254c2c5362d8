import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { ModelRegistry } from "../../src/models/ModelRegistry.ts"
import { contextJsonSchema } from "../../src/tools/contextSchema.ts"
import { makeJobsiteReplyGenerator } from "../../src/tools/jobsite/jobsiteReplyGenerator.ts"
import { makeTestTool } from "../support/tools.ts"

const models = ModelRegistry.of({ catalog: [], find: () => undefined, replace: () => Effect.void })

describe("contextJsonSchema", () => {
  it("is the declared context: required fields listed as such, optional ones beside them, each described", () => {
    const { schema, definitions } = contextJsonSchema(makeJobsiteReplyGenerator(models))!
    expect(schema.type).toBe("object")
    expect(schema.required).toEqual(["configData", "replyPrompts"])
    const properties = schema.properties as Record<string, { type?: string; description?: string }>
    expect(Object.keys(properties)).toEqual(["configData", "replyPrompts", "preferredBrand", "modelConfig"])
    for (const property of Object.values(properties)) expect(property.description).toMatch(/\w/)
    expect(properties.configData!.type).toBe("object")
    expect(properties.preferredBrand).toEqual({
      type: "string",
      description: "Brand to answer for when the input names none; needed when configData has several."
    })
    expect(definitions).toEqual({})
  })

  it("is absent for a tool that declares no context", () => {
    expect(contextJsonSchema(makeTestTool({ name: "echo" }))).toBeUndefined()
  })
})
