import { Schema } from "effect"
import { isRecord } from "../../domain/isRecord.ts"

/**
 * OpenAI's documented request fields that parley cannot honour
 * (docs/DESIGN.md §14), each with the values that ask for nothing (sent by
 * clients that spell out defaults; the contract declares just those) and
 * what to do instead. Any other value answers 400 naming the field: a client
 * must not believe it got what it asked.
 */
const unsupported = {
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
} as const

type Field = keyof typeof unsupported

const fields = Object.keys(unsupported) as ReadonlyArray<Field>

/** The fields the decoder knows to refuse, so that they are not also called unknown. */
export const unsupportedFields: ReadonlySet<string> = new Set(fields)

/** The fields as the contract declares them: only their values that ask for nothing. */
export const unsupportedFieldSchemas = Object.fromEntries(
  fields.map((field) => [
    field,
    Schema.optionalKey(unsupported[field].harmless.annotate({
      description: `Not supported (${unsupported[field].why}); taken only with a value that asks for nothing.`
    }))
  ])
) as { readonly [F in Field]: Schema.optionalKey<(typeof unsupported)[F]["harmless"]> }

const isHarmless: ReadonlyMap<Field, (value: unknown) => boolean> = new Map(
  fields.map((field) => [field, Schema.is(unsupported[field].harmless)])
)

export const unsupportedFieldIssues = (body: unknown): ReadonlyArray<string> => {
  if (!isRecord(body)) return []
  const issues: Array<string> = []
  for (const field of fields) {
    if (field in body && !isHarmless.get(field)!(body[field])) {
      issues.push(`"${field}" is not supported: ${unsupported[field].why}`)
    }
  }
  return issues
}
