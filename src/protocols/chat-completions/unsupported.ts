import { isRecord } from "../../domain/isRecord.ts"

/**
 * OpenAI's documented request fields that parley cannot honour
 * (docs/DESIGN.md §14), each with the values that ask for nothing (sent by
 * clients that spell out defaults) and what to do instead. Any other value
 * answers 400 naming the field: a client must not believe it got what it asked.
 */
const unsupported: Readonly<Record<string, { readonly harmless: (value: unknown) => boolean; readonly why: string }>> =
  {
    n: { harmless: (v) => v === 1 || v === null, why: "parley answers one choice: leave it out or send 1" },
    audio: { harmless: (v) => v === null, why: "parley answers text" },
    modalities: {
      harmless: (v) => v === null || (Array.isArray(v) && v.every((m) => m === "text")),
      why: `parley answers text: leave it out or send ["text"]`
    },
    logprobs: { harmless: (v) => v === false || v === null, why: "parley does not return log probabilities" },
    top_logprobs: { harmless: (v) => v === null || v === 0, why: "parley does not return log probabilities" },
    logit_bias: {
      harmless: (v) => v === null || (isRecord(v) && Object.keys(v).length === 0),
      why: "parley does not pass token biases to its providers"
    },
    prediction: { harmless: (v) => v === null, why: "parley does not take predicted outputs" },
    web_search_options: {
      harmless: (v) => v === null,
      why: "parley offers its own tools instead: name them in allowedTools"
    },
    functions: { harmless: (v) => v === null, why: `deprecated by OpenAI: send "tools"` },
    function_call: { harmless: (v) => v === null, why: `deprecated by OpenAI: send "tool_choice"` },
    store: { harmless: (v) => v === false || v === null, why: "parley does not store Chat Completions" },
    service_tier: {
      harmless: (v) => v === null || v === "auto" || v === "default",
      why: "parley picks no service tier: leave it out or send \"auto\""
    },
    verbosity: { harmless: (v) => v === null, why: "parley does not pass verbosity to its providers" }
  }

/** The fields the decoder knows to refuse, so that they are not also called unknown. */
export const unsupportedFields: ReadonlySet<string> = new Set(Object.keys(unsupported))

export const unsupportedFieldIssues = (body: unknown): ReadonlyArray<string> => {
  if (!isRecord(body)) return []
  const issues: Array<string> = []
  for (const field in unsupported) {
    if (!(field in body)) continue
    const rule = unsupported[field]!
    if (!rule.harmless(body[field])) issues.push(`"${field}" is not supported: ${rule.why}`)
  }
  return issues
}
