import { Effect, Schema } from "effect"
import { defineTool } from "../tools/defineTool.ts"

/**
 * The demo's tool: counts the words and characters of a text. Small, local
 * and real, so the demo shows a whole server-side tool loop without a sandbox.
 */
export const wordCountTool = defineTool({
  name: "word_count",
  description: "Counts the words and characters of a text.",
  category: "demo",
  inputSchema: Schema.Struct({ text: Schema.String.annotate({ description: "The text to count" }) }),
  promptTypes: [],
  execute: (input) =>
    Effect.succeed({
      words: input.text.split(/\s+/).filter((word) => word.length > 0).length,
      characters: input.text.length
    })
})
