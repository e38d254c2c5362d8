import { assert, describe, it } from "@effect/vitest"
import type { UIMessage } from "ai"
import { Arbitrary, Effect, Schema } from "effect"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import {
  countMessage,
  countMessageWithin,
  countSystem,
  countText,
  countTextWithin,
  FILE_TOKENS,
  MESSAGE_OVERHEAD
} from "../../src/prune/tokenCount.ts"

const exact = (text: string) => countTokens(text, { disallowedSpecial: new Set() })

describe("token counts against gpt-tokenizer (o200k_base)", () => {
  it("counts text exactly", () => {
    assert.strictEqual(countText("Hello, world!"), 4)
    assert.strictEqual(countText("Bonjour, je cherche un poste de développeur à Lyon."), exact("Bonjour, je cherche un poste de développeur à Lyon."))
    assert.strictEqual(countText(""), 0)
  })

  it("counts special-token text as text instead of throwing", () => {
    assert.strictEqual(countText("end <|endoftext|> here"), exact("end <|endoftext|> here"))
  })

  it("counts a user message: overhead plus text", () => {
    const message: UIMessage = { id: "1", role: "user", parts: [{ type: "text", text: "What is the weather in Oslo?" }] }
    assert.strictEqual(countMessage(message), MESSAGE_OVERHEAD + exact("What is the weather in Oslo?"))
  })

  it("counts a tool step: name, input and output as JSON, error text; files at a fixed cost; sources free", () => {
    const input = { command: "ls -la /work", timeout_ms: 5000 }
    const output = { stdout: "total 0\n", exitCode: 0 }
    const message: UIMessage = {
      id: "2",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "dynamic-tool", toolName: "bash", toolCallId: "c1", state: "output-available", input, output },
        { type: "tool-browser", toolCallId: "c2", state: "output-error", input: { url: "x" }, errorText: "timeout" },
        { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA" },
        { type: "source-url", sourceId: "s", url: "https://example.com/a/very/long/url" },
        { type: "reasoning", text: "Let me look." },
        { type: "text", text: "Done." }
      ]
    }
    const expected = MESSAGE_OVERHEAD + exact("bash") + exact(JSON.stringify(input)) + exact(JSON.stringify(output)) +
      exact("browser") + exact(JSON.stringify({ url: "x" })) + exact("timeout") + FILE_TOKENS +
      exact("Let me look.") + exact("Done.")
    assert.strictEqual(countMessage(message), expected)
  })

  it("counts the system prompt as one message; an empty one is free", () => {
    assert.strictEqual(countSystem("You are a helpful AI assistant."), MESSAGE_OVERHEAD + exact("You are a helpful AI assistant."))
    assert.strictEqual(countSystem(""), 0)
  })

  it("stops at the limit", () => {
    const text = "lorem ipsum dolor sit amet ".repeat(100)
    assert.strictEqual(countTextWithin(text, exact(text)), exact(text))
    assert.isFalse(countTextWithin(text, exact(text) - 1))
    const message: UIMessage = { id: "3", role: "user", parts: [{ type: "text", text }] }
    assert.isFalse(countMessageWithin(message, MESSAGE_OVERHEAD + exact(text) - 1))
    assert.strictEqual(countMessageWithin(message, MESSAGE_OVERHEAD + exact(text)), countMessage(message))
  })

  it("counts a long run without spaces quickly and within a token per slice", () => {
    let seed = 7
    const letters = Array.from({ length: 20_000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return String.fromCharCode(97 + (seed % 26))
    }).join("")
    const start = performance.now()
    const counted = countText(letters.repeat(10))
    assert.isBelow(performance.now() - start, 3_000)
    const reference = exact(letters.slice(0, 2_000)) * 100
    assert.approximately(counted, reference, reference * 0.02)
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
        assert.strictEqual(countText(text), exact(text))
      })
  )
})
