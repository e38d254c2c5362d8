import { round } from "./stats.ts"

/** One line of the table: what was measured, the two sides, and the target it answers to. */
export interface Row {
  readonly figure: string
  readonly direct?: number | undefined
  readonly parley: number
  readonly unit: string
  readonly target?: { readonly limit: number; readonly atLeast?: boolean } | undefined
}

const cell = (value: number | undefined) => (value === undefined ? "" : String(round(value, value >= 100 ? 0 : 3)))

export const verdict = (row: Row): string => {
  if (row.target === undefined) return ""
  const met = row.target.atLeast === true ? row.parley >= row.target.limit : row.parley <= row.target.limit
  return `${met ? "met" : "MISSED"} (${row.target.atLeast === true ? "≥" : "≤"} ${row.target.limit})`
}

/** A plain-text table, columns padded to their widest cell. */
export const table = (rows: ReadonlyArray<Row>): string => {
  const lines = [
    ["figure", "direct", "parley", "unit", "target"],
    ...rows.map((row) => [row.figure, cell(row.direct), cell(row.parley), row.unit, verdict(row)])
  ]
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)))
  return lines
    .map((line) =>
      line.map((text, i) => (i === 1 || i === 2 ? text.padStart(widths[i]!) : text.padEnd(widths[i]!))).join("  ")
    )
    .join("\n")
}

/** Rounds every number in a nested value, for the one-line JSON summary. */
export const rounded = (value: unknown): unknown => {
  if (typeof value === "number") return Number.isFinite(value) ? round(value) : null
  if (Array.isArray(value)) return value.map(rounded)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rounded(inner)]))
  }
  return value
}
