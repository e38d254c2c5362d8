import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base"
import * as o200k from "gpt-tokenizer/encoding/o200k_base"
import { APPROXIMATION_FACTOR, tokenizerNamed } from "../../src/prune/Tokenizer.ts"
import { fixtures } from "./fixtures.ts"

const options = { disallowedSpecial: new Set<string>() }
const exact = {
  o200k_base: (text: string) => o200k.countTokens(text, options),
  cl100k_base: (text: string) => cl100k.countTokens(text, options)
}
const count = (name: "o200k_base" | "cl100k_base" | "approximate", text: string) =>
  tokenizerNamed(name).count(text, Infinity) as number

describe("counts against gpt-tokenizer", () => {
  it.each(Object.entries(fixtures))("%s: o200k_base and cl100k_base are exact", (_, text) => {
    assert.strictEqual(count("o200k_base", text), exact.o200k_base(text))
    assert.strictEqual(count("cl100k_base", text), exact.cl100k_base(text))
  })

  it("the two encodings differ: the family matters", () => {
    assert.notStrictEqual(count("o200k_base", fixtures.french), count("cl100k_base", fixtures.french))
  })

  it("counts special-token text as text instead of throwing", () => {
    assert.strictEqual(count("o200k_base", "end <|endoftext|> here"), exact.o200k_base("end <|endoftext|> here"))
  })

  it("stops at the limit", () => {
    const text = "lorem ipsum dolor sit amet ".repeat(100)
    const tokens = exact.o200k_base(text)
    assert.strictEqual(tokenizerNamed("o200k_base").count(text, tokens), tokens)
    assert.isFalse(tokenizerNamed("o200k_base").count(text, tokens - 1))
  })
})

describe("the approximation for tokenizers that are not public", () => {
  it.each(Object.entries(fixtures))("%s: o200k_base scaled by the documented factor", (_, text) => {
    assert.strictEqual(APPROXIMATION_FACTOR, 1.3)
    assert.strictEqual(count("approximate", text), Math.ceil(exact.o200k_base(text) * APPROXIMATION_FACTOR))
  })

  it.each(["english", "code", "json", "logs"] as const)("%s: errs high against both OpenAI encodings", (name) => {
    const approximate = count("approximate", fixtures[name])
    assert.isAbove(approximate, exact.o200k_base(fixtures[name]))
    assert.isAbove(approximate, exact.cl100k_base(fixtures[name]))
  })

  it("stops at the limit in scaled tokens", () => {
    const tokens = count("approximate", fixtures.english)
    assert.strictEqual(tokenizerNamed("approximate").count(fixtures.english, tokens), tokens)
    assert.isFalse(tokenizerNamed("approximate").count(fixtures.english, tokens - 1))
  })
})

const Word = Schema.String.check(Schema.isPattern(/^[A-Za-zéü,.!?'0-9-]{1,14}$/))

describe("slicing long texts", () => {
  it.effect.prop(
    "ordinary prose of any length counts exactly",
    [Arbitrary.array(Arbitrary.schema(Word), { minLength: 50, maxLength: 800 })],
    ([words]) =>
      Effect.sync(() => {
        // Generated word lists stay short; four rounds reach several slices.
        const text = [words, words.toReversed(), words, words.toReversed()].map((round) => round.join(" ")).join("\n")
        assert.isAbove(text.length, 1_024)
        assert.strictEqual(count("o200k_base", text), exact.o200k_base(text))
      })
  )

  it("counts a long run without spaces quickly and within a token per slice", () => {
    let seed = 7
    const letters = Array.from({ length: 20_000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return String.fromCharCode(97 + (seed % 26))
    }).join("")
    const start = performance.now()
    const counted = count("o200k_base", letters.repeat(10))
    assert.isBelow(performance.now() - start, 3_000)
    const reference = exact.o200k_base(letters.slice(0, 2_000)) * 100
    assert.approximately(counted, reference, reference * 0.02)
  })
})
