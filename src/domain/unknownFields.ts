import { editDistance } from "./editDistance.ts"
import { isRecord } from "./isRecord.ts"

// Long enough for any known field and its typos; a longer name is no near miss and is shown cut.
const MAX_NAME_LENGTH = 40

/** The known field a misspelled one most likely means: a few edits away (`strem` → `stream`), if any. */
export const closestField = (field: string, known: ReadonlyArray<string>): string | undefined => {
  if (field.length > MAX_NAME_LENGTH) return undefined
  let best: { readonly name: string; readonly distance: number } | undefined
  for (const name of known) {
    const d = editDistance(field, name)
    if (d <= Math.max(1, Math.floor(name.length / 3)) && (best === undefined || d < best.distance)) {
      best = { name, distance: d }
    }
  }
  return best?.name
}

const shown = (field: string) => field.length > MAX_NAME_LENGTH ? `${field.slice(0, MAX_NAME_LENGTH)}…` : field

/**
 * An issue, worded as the decoder's (domain/requestIssues.ts), for each field
 * of `value` that is neither `known` nor `ignored`, at `path` (docs/DESIGN.md
 * §3.16). A value that is not an object is the decoder's to judge.
 */
export const unknownFieldIssues = (
  value: unknown,
  known: ReadonlySet<string>,
  ignored: ReadonlySet<string>,
  path: string
): ReadonlyArray<string> => {
  if (!isRecord(value)) return []
  const issues: Array<string> = []
  for (const field of Object.keys(value)) {
    if (known.has(field) || ignored.has(field)) continue
    const near = closestField(field, [...known])
    const where = path === "" ? shown(field) : `${path}.${shown(field)}`
    issues.push(`"${where}" is not a known field${near === undefined ? "" : ` (did you mean "${near}"?)`}`)
  }
  return issues
}
