import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { compileTool, toolDefinitions } from "../../src/tools/toolDefinition.ts"
import { makeTestTool } from "../support/tools.ts"

interface Category {
  readonly name: string
  readonly children: ReadonlyArray<Category>
}
const Category: Schema.Codec<Category> = Schema.Struct({
  name: Schema.String,
  children: Schema.Array(Schema.suspend((): Schema.Codec<Category> => Category))
}).annotate({ identifier: "Category" })

describe("toolDefinitions", () => {
  it.effect("describes each tool to the model as a function tool with a draft-07 JSON Schema", () =>
    Effect.sync(() => {
      const search = makeTestTool({
        name: "search",
        description: "Search the catalog",
        inputSchema: Schema.Struct({
          query: Schema.String.annotate({ description: "What to look for" }),
          limit: Schema.optional(Schema.Int)
        })
      })
      const definitions = toolDefinitions([search])
      expect(definitions).toEqual([{
        type: "function",
        name: "search",
        description: "Search the catalog",
        inputSchema: {
          type: "object",
          properties: {
            query: { type: "string", description: "What to look for" },
            limit: {
              anyOf: [{ type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }, {
                type: "null"
              }]
            }
          },
          required: ["query"],
          additionalProperties: true
        }
      }])
    }))

  it.effect("keeps shared definitions inside the schema, where draft-07 references point", () =>
    Effect.sync(() => {
      const tool = makeTestTool({ name: "classify", inputSchema: Schema.Struct({ category: Category }) })
      const schema = compileTool(tool).definition.inputSchema
      expect(schema?.properties?.category).toEqual({ $ref: "#/definitions/Category" })
      expect(Object.keys(schema?.definitions ?? {})).toEqual(["Category"])
    }))

  it.effect("decodes arguments through the JSON codec the schema describes", () =>
    Effect.sync(() => {
      const tool = makeTestTool({
        name: "search",
        inputSchema: Schema.Struct({ query: Schema.String, limit: Schema.optional(Schema.Int) })
      })
      const { decode } = compileTool(tool)
      expect(decode({ query: "a", limit: null })).toEqual(Result.succeed({ query: "a", limit: undefined }))
      assert.isTrue(Result.isFailure(decode({ query: 1 })))
    }))

  it.effect("compiles a tool once", () =>
    Effect.sync(() => {
      const tool = makeTestTool({ name: "once" })
      assert.strictEqual(compileTool(tool), compileTool(tool))
    }))
})
