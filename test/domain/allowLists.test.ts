import { describe, expect, it } from "vitest"
import { allowsModel, entriesBeyond, intersectAllowLists } from "../../src/domain/ApiKey.ts"
import { makeKey } from "../support/keys.ts"

describe("key ∩ account (docs/DESIGN.md §6)", () => {
  it.each([
    [["*"], ["*"], ["*"]],
    [["*"], ["openai/*"], ["openai/*"]],
    [["openai/*"], ["*"], ["openai/*"]],
    [["openai/*"], ["openai/gpt-4o", "anthropic/*"], ["openai/gpt-4o"]],
    [["openai/gpt-4o"], ["openai/*"], ["openai/gpt-4o"]],
    [["openai/gpt-4o", "anthropic/claude"], ["anthropic/*"], ["anthropic/claude"]],
    [["openai/*"], ["anthropic/*"], []],
    [[], ["*"], []],
    [["*"], [], []],
    [["bash", "browser"], ["browser", "computer"], ["browser"]],
    // An MCP server's tools (docs/DESIGN.md §9) narrow the same way.
    [["docs__search", "wiki__read"], ["docs__*"], ["docs__search"]],
    [["docs__*"], ["docs__search", "bash"], ["docs__search"]],
    [["*"], ["docs__*"], ["docs__*"]]
  ])("%j ∩ %j = %j", (key, account, expected) => {
    expect(intersectAllowLists(key, account)).toEqual(expected)
  })

  it("admits exactly what both lists admit", () => {
    const key = ["openai/*", "anthropic/claude"]
    const account = ["openai/gpt-4o", "anthropic/*"]
    const both = makeKey({ allowedModels: intersectAllowLists(key, account) })
    for (const model of ["openai/gpt-4o", "openai/o3", "anthropic/claude", "anthropic/haiku", "x/y"]) {
      expect(allowsModel(both, model)).toBe(
        allowsModel(makeKey({ allowedModels: key }), model) && allowsModel(makeKey({ allowedModels: account }), model)
      )
    }
  })

  it("names the entries wider than the account", () => {
    expect(entriesBeyond(["openai/gpt-4o", "openai/*", "*", "anthropic/x"], ["openai/*"])).toEqual(["*", "anthropic/x"])
    expect(entriesBeyond(["bash"], ["*"])).toEqual([])
    expect(entriesBeyond(["bash"], [])).toEqual(["bash"])
    expect(entriesBeyond(["docs__search", "docs__*", "wiki__read", "bash"], ["docs__*"])).toEqual([
      "wiki__read",
      "bash"
    ])
  })
})
