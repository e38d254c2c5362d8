import { assert, describe, it } from "@effect/vitest"
import { closestField, unknownFieldIssues } from "../../src/domain/unknownFields.ts"

const fields = ["model", "messages", "stream", "prune", "pruneOptions", "validateOnly", "allowedTools"]

describe("closestField", () => {
  it.each([
    ["strem", "stream"],
    ["Stream", "stream"],
    ["mesages", "messages"],
    ["validate_only", "validateOnly"],
    ["allowedTool", "allowedTools"],
    ["prunOptions", "pruneOptions"]
  ])("%s → %s", (typo, meant) => assert.strictEqual(closestField(typo, fields), meant))

  it.each(["temperature", "x", "maxTokens", "a".repeat(1000)])("%s is near none", (field) => {
    assert.isUndefined(closestField(field, fields))
  })
})

describe("unknownFieldIssues", () => {
  const known = new Set(fields)
  const ignored = new Set(["id"])

  it("names each unknown field at its path, and no known or ignored one", () => {
    assert.deepStrictEqual(unknownFieldIssues({ model: 1, id: 2, strem: 3, foo: 4 }, known, ignored, ""), [
      `"strem" is not a known field (did you mean "stream"?)`,
      `"foo" is not a known field`
    ])
    assert.deepStrictEqual(unknownFieldIssues({ prune: 1, x: 2 }, known, ignored, "pruneOptions"), [
      `"pruneOptions.x" is not a known field`
    ])
  })

  it("leaves what is not an object to the decoder, and cuts a long name", () => {
    for (const value of [null, [], "x", 1]) assert.deepStrictEqual(unknownFieldIssues(value, known, ignored, ""), [])
    const [issue] = unknownFieldIssues({ ["k".repeat(10_000)]: 1 }, known, ignored, "")
    assert.strictEqual(issue, `"${"k".repeat(40)}…" is not a known field`)
  })
})
