/** A JSON object: not null, not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A JSON object with no field but of `fields`: a body a decoder's fast path may take (./ChatRequest.ts). */
export const hasOnly = (value: unknown, fields: ReadonlySet<string>): value is Record<string, unknown> => {
  if (!isRecord(value)) return false
  for (const field in value) if (!fields.has(field)) return false
  return true
}
