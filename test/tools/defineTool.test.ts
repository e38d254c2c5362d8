import { Effect, Redacted, Schema } from "effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import { defineTool } from "../../src/tools/defineTool.ts"
import type { ToolExecution } from "../../src/tools/Tool.ts"
import { fakeExecution, runTool } from "../support/fakes/execution.ts"

const Input = Schema.Struct({ query: Schema.String, limit: Schema.optional(Schema.Int) })

const context = {
  token: Schema.RedactedFromValue(Schema.String.check(Schema.isMinLength(1))),
  region: Schema.optionalKey(Schema.Literals(["eu", "us"]))
}

const search = defineTool({
  name: "search",
  description: "Searches",
  category: "test",
  inputSchema: Input,
  context,
  promptTypes: ["generalComputerSystemPrompt"],
  execute: (input, execution) => {
    expectTypeOf(input).toEqualTypeOf<{ readonly query: string; readonly limit?: number | undefined }>()
    expectTypeOf(execution).toEqualTypeOf<
      ToolExecution<{ readonly token: Redacted.Redacted<string>; readonly region?: "eu" | "us" }>
    >()
    return Effect.succeed({
      query: input.query,
      token: Redacted.value(execution.context.token),
      region: execution.context.region
    })
  }
})

describe("defineTool", () => {
  it("derives the required context from the declared fields, optional ones apart", () => {
    expect(search.requiredContext.map((requirement) => requirement.field)).toEqual(["token"])
    expect(search.optionalContext?.map((field) => field.field)).toEqual(["region"])
    expect(search.requiresSandbox).toBe(false)
    expect(search.promptTypes).toEqual(["generalComputerSystemPrompt"])
  })

  it("hands execute the decoded context", async () => {
    const run = await runTool(search, { query: "q" }, { token: "t-1", region: "eu", unrelated: 1 })
    expect(run).toEqual({ ok: true, output: { query: "q", token: "t-1", region: "eu" } })
  })

  it("fails the call, naming the field, when a declared field is malformed", async () => {
    const run = await runTool(search, { query: "q" }, { token: "t-1", region: "mars" })
    expect(run).toEqual({
      ok: false,
      error: expect.stringMatching(/^The search context is malformed: .*\n {2}at \["region"\]$/s)
    })
  })

  it("gives every call with one merged context the same decoded context object", async () => {
    const seen: Array<object> = []
    const tool = defineTool({
      name: "same",
      description: "Records its context",
      category: "test",
      inputSchema: Schema.Struct({}),
      promptTypes: [],
      execute: (_input, execution) => Effect.sync(() => seen.push(execution.context))
    })
    const merged = { a: 1 }
    await Effect.runPromise(tool.execute({}, fakeExecution(merged)))
    await Effect.runPromise(tool.execute({}, fakeExecution(merged)))
    await Effect.runPromise(tool.execute({}, fakeExecution({ a: 1 })))
    expect(seen[0]).toBe(seen[1])
    expect(seen[2]).not.toBe(seen[0])
  })
})
