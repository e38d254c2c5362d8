import { assert, describe, it } from "@effect/vitest"
import { tokenizerOf } from "../../src/domain/TokenizerName.ts"

describe("tokenizer per model family", () => {
  it.each(
    [
      ["openai/gpt-5-mini", "o200k_base"],
      ["openai/gpt-4o", "o200k_base"],
      ["openai/gpt-4.1-mini", "o200k_base"],
      ["azure/o3-mini", "o200k_base"],
      ["openrouter/openai/gpt-oss-120b", "o200k_base"],
      ["openai/gpt-4", "cl100k_base"],
      ["openai/gpt-4-turbo", "cl100k_base"],
      ["legacy/gpt-3.5-turbo", "cl100k_base"],
      ["anthropic/claude-sonnet-4-5", "approximate"],
      ["local/llama-3.1-70b", "approximate"],
      ["test/m1", "approximate"]
    ] as const
  )("%s counts with %s", (id, tokenizer) => {
    assert.strictEqual(tokenizerOf({ id }), tokenizer)
  })

  it("the catalog's tokenizer wins over the derived one", () => {
    assert.strictEqual(tokenizerOf({ id: "local/my-finetune", tokenizer: "o200k_base" }), "o200k_base")
    assert.strictEqual(tokenizerOf({ id: "openai/gpt-4o", tokenizer: "approximate" }), "approximate")
  })
})
