import { Schema } from "effect"
import { refusedFields } from "../refusedFields.ts"

/**
 * OpenAI's documented Chat Completions fields that parley cannot honour
 * (docs/DESIGN.md §14), each with the values that ask for nothing and what
 * to do instead.
 */
const unsupported = refusedFields({
  n: { harmless: Schema.NullOr(Schema.Literal(1)), why: "parley answers one choice: leave it out or send 1" },
  audio: { harmless: Schema.Null, why: "parley answers text" },
  modalities: {
    harmless: Schema.NullOr(Schema.Array(Schema.Literal("text"))),
    why: `parley answers text: leave it out or send ["text"]`
  },
  logprobs: { harmless: Schema.NullOr(Schema.Literal(false)), why: "parley does not return log probabilities" },
  top_logprobs: { harmless: Schema.NullOr(Schema.Literal(0)), why: "parley does not return log probabilities" },
  logit_bias: {
    harmless: Schema.NullOr(Schema.Record(Schema.String, Schema.Never)),
    why: "parley does not pass token biases to its providers"
  },
  prediction: { harmless: Schema.Null, why: "parley does not take predicted outputs" },
  web_search_options: { harmless: Schema.Null, why: "parley offers its own tools instead: name them in allowedTools" },
  functions: { harmless: Schema.Null, why: `deprecated by OpenAI: send "tools"` },
  function_call: { harmless: Schema.Null, why: `deprecated by OpenAI: send "tool_choice"` },
  store: { harmless: Schema.NullOr(Schema.Literal(false)), why: "parley does not store Chat Completions" },
  service_tier: {
    harmless: Schema.NullOr(Schema.Literals(["auto", "default"])),
    why: `parley picks no service tier: leave it out or send "auto"`
  },
  verbosity: { harmless: Schema.Null, why: "parley does not pass verbosity to its providers" }
})

export const unsupportedFields = unsupported.fields
export const unsupportedFieldSchemas = unsupported.schemas
export const unsupportedFieldIssues = unsupported.issues
