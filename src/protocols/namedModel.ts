/**
 * The model a body names in its top-level `model` (every door's place for
 * it: the spec's ChatRequest, Chat Completions, Messages, Responses), read
 * even when the rest of the body does not decode, so that a refused
 * request's ledger row says which model it asked for. A value that is not a
 * string names none.
 */
export const topLevelModel = (body: unknown): string | undefined => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined
  const model: unknown = (body as { readonly model?: unknown }).model
  return typeof model === "string" && model !== "" ? model : undefined
}
