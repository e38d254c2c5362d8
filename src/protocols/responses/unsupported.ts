import { Schema } from "effect"
import { refusedFields } from "../refusedFields.ts"

/**
 * OpenAI's documented Responses fields that parley cannot honour
 * (docs/DESIGN.md §14), each with the values that ask for nothing and what
 * to do instead. Responses are stored (`store`, `previous_response_id`)
 * and run in the background (`background`); OpenAI's conversation objects are not offered.
 */
export const unsupported = refusedFields({
  conversation: {
    harmless: Schema.Null,
    why: "parley keeps no conversation objects: continue a stored response with previous_response_id"
  },
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
