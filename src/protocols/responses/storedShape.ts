import { formatEcho } from "./decode.ts"
import type { TextFormat } from "./request.ts"

type Response = Readonly<Record<string, unknown>>

/**
 * A stored response as the Open Responses specification's
 * `ResponseResource` has it (docs/DESIGN.md §14): one stored before parley
 * answered every field it requires (issue 34) gets them as a request that
 * left its settings out would have had them, `completed_at` unknown (null),
 * and its JSON schema format repeated as the specification's. One stored
 * since is itself.
 */
export const currentShape = (response: Response): Response => {
  if ("completed_at" in response) return response
  const text = response.text as { readonly format?: TextFormat } | undefined
  return {
    ...response,
    completed_at: null,
    temperature: response.temperature ?? 1,
    top_p: response.top_p ?? 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: 0,
    max_tool_calls: null,
    safety_identifier: null,
    prompt_cache_key: null,
    text: { ...text, format: formatEcho(text?.format) }
  }
}
