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

/** Lines of cells as plain text, columns padded to their widest cell, numbers (`numeric` columns) to the right. */
const columns = (lines: ReadonlyArray<ReadonlyArray<string>>, numeric: (column: number) => boolean): string => {
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)))
  return lines
    .map((line) => line.map((text, i) => (numeric(i) ? text.padStart(widths[i]!) : text.padEnd(widths[i]!))).join("  "))
    .join("\n")
}

/** A plain-text table, columns padded to their widest cell. */
export const table = (rows: ReadonlyArray<Row>): string =>
  columns([
    ["figure", "direct", "parley", "unit", "target"],
    ...rows.map((row) => [row.figure, cell(row.direct), cell(row.parley), row.unit, verdict(row)])
  ], (i) => i === 1 || i === 2)

/** One figure of the door A/B: its value through each door. */
export interface DoorRow {
  readonly figure: string
  readonly unit: string
  readonly values: Readonly<Record<string, number>>
  /** Throughput: more is better (otherwise less is). */
  readonly higherIsBetter?: boolean
}

/** A ratio column of the door table: `of` / `to`, both door names. */
export interface DoorRatio {
  readonly of: string
  readonly to: string
  /** How much worse `of` may be (`TOLERANCE` when absent). */
  readonly tolerance?: number
}

/** How much worse `of` is than `to` (0.08: 8 % worse; negative: better). */
export const worseBy = (row: DoorRow, { of, to }: DoorRatio): number => {
  const ratio = row.values[of]! / row.values[to]!
  return row.higherIsBetter === true ? 1 / ratio - 1 : ratio - 1
}

/** The A/B tolerance of issue 20: a door within 5 % of another. */
export const TOLERANCE = 0.05
/** Issue 22's: a route of one healthy target within 2 % of its model asked directly. */
export const ROUTE_TOLERANCE = 0.02

const ratioCell = (row: DoorRow, ratio: DoorRatio) => {
  const value = row.values[ratio.of]! / row.values[ratio.to]!
  if (!Number.isFinite(value)) return ""
  const worse = worseBy(row, ratio)
  const marked = worse > (ratio.tolerance ?? TOLERANCE)
  return `${value.toFixed(3)}${marked ? ` (${(100 * worse).toFixed(worse < 0.1 ? 1 : 0)} % worse)` : ""}`
}

/**
 * The doors side by side, one line per figure, and each ratio (`of` / `to`)
 * with how much worse `of` is when that is more than its tolerance (5 %; a route's 2 %).
 */
export const doorTable = (
  rows: ReadonlyArray<DoorRow>,
  doors: ReadonlyArray<string>,
  ratios: ReadonlyArray<DoorRatio>
): string =>
  columns([
    ["figure (door A/B)", ...doors, ...ratios.map((ratio) => `${ratio.of} / ${ratio.to}`), "unit"],
    ...rows.map((row) => [
      row.figure,
      ...doors.map((door) => cell(row.values[door])),
      ...ratios.map((ratio) => ratioCell(row, ratio)),
      row.unit
    ])
  ], (i) => i > 0 && i <= doors.length + ratios.length)

/** The door A/B for the JSON line: each figure's values and ratios. */
export const doorSummary = (rows: ReadonlyArray<DoorRow>, ratios: ReadonlyArray<DoorRatio>) =>
  Object.fromEntries(rows.map((row) => [row.figure, {
    ...row.values,
    ...Object.fromEntries(
      ratios.map((ratio) => [`${ratio.of} / ${ratio.to}`, row.values[ratio.of]! / row.values[ratio.to]!])
    )
  }]))

/** Rounds every number in a nested value, for the one-line JSON summary. */
export const rounded = (value: unknown): unknown => {
  if (typeof value === "number") return Number.isFinite(value) ? round(value) : null
  if (Array.isArray(value)) return value.map(rounded)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rounded(inner)]))
  }
  return value
}
