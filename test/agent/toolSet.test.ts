import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { makeToolSet } from "../../src/agent/toolSet.ts"
import { makeTestTool } from "../support/tools.ts"

describe("makeToolSet", () => {
  it.effect("holds each tool with its merged context and the decoder of its arguments", () =>
    Effect.sync(() => {
      const tool = makeTestTool({
        name: "search",
        inputSchema: Schema.Struct({ query: Schema.String, limit: Schema.optional(Schema.Int) })
      })
      const entry = makeToolSet([{ tool, context: { partnerToken: "t" } }]).byName.get("search")
      assert.isDefined(entry)
      expect(entry?.context).toEqual({ partnerToken: "t" })
      expect(entry?.definition.name).toBe("search")
      expect(entry?.decode({ query: "a", limit: null })).toEqual(Result.succeed({ query: "a", limit: undefined }))
    }))

  it.effect("has no function tools and no run scope for a run without tools", () =>
    Effect.sync(() => {
      const none = makeToolSet([])
      assert.isUndefined(none.definitions)
      // So a plain chat adds nothing to close at its end (runAgent).
      assert.isUndefined(none.runScope)
    }))

  it.effect("gives every tool of a run the run's one scope", () =>
    Effect.sync(() => {
      const set = makeToolSet([makeTestTool({ name: "a" }), makeTestTool({ name: "b" })].map((tool) => ({
        tool,
        context: {}
      })))
      assert.isDefined(set.runScope)
      for (const entry of set.byName.values()) assert.strictEqual(entry.runScope, set.runScope)
    }))
})
