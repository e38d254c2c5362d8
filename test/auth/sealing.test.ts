import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { makeSealer } from "../../src/auth/sealing.ts"

const secret = randomBytes(32)
const sealer = makeSealer(secret, "mcp server headers")
// Text as UTF-8 can hold it: a lone surrogate has no encoding.
const Text = Schema.String.check(Schema.makeFilter((text: string) => text.isWellFormed()))

describe("sealing secrets at rest (docs/DESIGN.md §9)", () => {
  it.effect.prop(
    "opens what it sealed, and only under the same key, purpose and context",
    [Text, Text],
    ([plain, context]) =>
      Effect.sync(() => {
        const sealed = sealer.seal(plain, context)
        assert.strictEqual(sealer.open(sealed, context), plain)
        if (plain.length >= 4) assert.notInclude(sealed, plain)
        assert.isUndefined(sealer.open(sealed, `${context}x`))
        assert.isUndefined(makeSealer(randomBytes(32), "mcp server headers").open(sealed, context))
        assert.isUndefined(makeSealer(secret, "another purpose").open(sealed, context))
      })
  )

  it("seals the same text differently each time, and refuses an altered value", () => {
    const first = sealer.seal("Bearer token", "docs\nauthorization")
    const second = sealer.seal("Bearer token", "docs\nauthorization")
    assert.notStrictEqual(first, second)
    const parts = first.split(".")
    const body = Buffer.from(parts[2]!, "base64url")
    body[0] = body[0]! ^ 1
    const altered = [parts[0], parts[1], body.toString("base64url"), parts[3]].join(".")
    assert.isUndefined(sealer.open(altered, "docs\nauthorization"))
    assert.isUndefined(sealer.open("not sealed", "docs\nauthorization"))
  })
})
