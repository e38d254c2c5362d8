import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { parseJsonBody } from "../../src/domain/ChatRequest.ts"
import { MAX_JSON_DEPTH, nestsDeeperThan, shallowJson } from "../../src/domain/jsonDepth.ts"
import { MalformedJson } from "../../src/domain/requestErrors.ts"

const nested = (depth: number, inner = "") => `${"[{\"a\":".repeat(depth / 2)}${inner}${"}]".repeat(depth / 2)}`

describe("nestsDeeperThan", () => {
  it("counts arrays and objects alike", () => {
    assert.isFalse(nestsDeeperThan(nested(64, "1"), 64))
    assert.isTrue(nestsDeeperThan(nested(66, "1"), 64))
    assert.isTrue(nestsDeeperThan(`{"a":${"[".repeat(64)}`, 64))
    assert.isFalse(nestsDeeperThan(`[${"[],".repeat(1000)}[]]`, 2))
  })

  it("ignores brackets inside strings, also after escaped quotes and backslashes", () => {
    assert.isFalse(nestsDeeperThan(JSON.stringify({ a: "[{".repeat(100) }), 2))
    assert.isFalse(nestsDeeperThan(JSON.stringify({ a: `\\"${"[".repeat(100)}` }), 2))
    assert.isFalse(nestsDeeperThan(JSON.stringify({ a: `"${"[".repeat(100)}\\` }), 2))
    assert.isTrue(nestsDeeperThan(JSON.stringify({ a: "\\", b: [[[]]] }), 3))
  })

  it("leaves an unterminated string to the parser", () => {
    assert.isFalse(nestsDeeperThan(`{"a":"[[[[`, 2))
  })
})

describe("parseJsonBody: nesting", () => {
  it.effect(`refuses more than ${MAX_JSON_DEPTH} levels as MalformedJson, however deep`, () =>
    Effect.gen(function*() {
      for (const depth of [MAX_JSON_DEPTH + 2, 100_000]) {
        const error = yield* Effect.flip(parseJsonBody(nested(depth)))
        assert.instanceOf(error, MalformedJson)
        assert.strictEqual(error.reason, "nested deeper than 64 levels of arrays and objects")
      }
      assert.isDefined(yield* parseJsonBody(nested(MAX_JSON_DEPTH, "1")))
    }))
})

describe("shallowJson", () => {
  it("parses JSON no deeper than a body may be, and gives undefined for deeper or malformed text", () => {
    assert.deepStrictEqual(shallowJson(`{"a":[1]}`), { a: [1] })
    assert.isDefined(shallowJson(nested(MAX_JSON_DEPTH, "1")))
    assert.isUndefined(shallowJson(nested(MAX_JSON_DEPTH + 2, "1")))
    assert.isUndefined(shallowJson(nested(100_000)))
    assert.isUndefined(shallowJson(`{"a":`))
  })
})
