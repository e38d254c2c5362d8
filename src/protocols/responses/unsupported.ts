import { Schema } from "effect"
import { refusedFields } from "../refusedFields.ts"

const stored = "stored responses come later in parley (round3 part D): send the whole conversation in input"

/**
 * OpenAI's documented Responses fields that parley cannot honour
 * (docs/DESIGN.md §14), each with the values that ask for nothing and what
 * to do instead. This door is stateless: what needs a stored response
 * names that it comes with them.
 */
export const unsupported = refusedFields({
  previous_response_id: { harmless: Schema.Null, why: stored },
  background: {
    harmless: Schema.NullOr(Schema.Literal(false)),
    why: "background responses come with stored responses (round3 part D): stream instead"
  },
  conversation: { harmless: Schema.Null, why: stored },
  prompt: {
    harmless: Schema.Null,
    why: "parley keeps no prompt templates: send instructions, or parley's promptType"
  },
  max_tool_calls: { harmless: Schema.Null, why: "parley's own step limit bounds the tool calls" },
  top_logprobs: { harmless: Schema.NullOr(Schema.Literal(0)), why: "parley does not return log probabilities" },
  service_tier: {
    harmless: Schema.NullOr(Schema.Literals(["auto", "default"])),
    why: `parley picks no service tier: leave it out or send "auto"`
  },
  context_management: { harmless: Schema.Null, why: "parley prunes a conversation by its prune field" }
})
