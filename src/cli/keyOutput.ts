import type { ApiKey } from "../domain/ApiKey.ts"

/** What `parley keys …` prints. Secrets appear only in `secretNotice`; hashes never. */

const minute = (date: Date): string => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`

const listText = (entries: ReadonlyArray<string>): string => entries.length === 0 ? "(none)" : entries.join(",")

const expiresText = (key: ApiKey, now: number): string => {
  if (key.expiresAt === null) return "never"
  return key.expiresAt.getTime() <= now ? `${minute(key.expiresAt)} (expired)` : minute(key.expiresAt)
}

const columns: ReadonlyArray<readonly [string, (key: ApiKey, now: number) => string]> = [
  ["ID", (key) => key.id],
  ["NAME", (key) => key.name],
  ["PREFIX", (key) => `${key.prefix}…`],
  ["STATUS", (key) => key.status],
  ["MODELS", (key) => listText(key.allowedModels)],
  ["TOOLS", (key) => listText(key.allowedTools)],
  ["CREATED", (key) => minute(key.createdAt)],
  ["LAST USED", (key) => key.lastUsedAt === null ? "never" : minute(key.lastUsedAt)],
  ["EXPIRES", expiresText]
]

/** Columns that give up width, with an ellipsis, when the table is too wide: free text and lists. */
const shrinkable = new Set(["NAME", "MODELS", "TOOLS"])
const GAP = 2
/** Width a table aims for when stdout is not a terminal (a pipe, a file): room for every column at a glance. */
const DEFAULT_WIDTH = 160
/** A shrunk column keeps this much, so a cut name or list stays recognisable. */
const MIN_SHRUNK_WIDTH = 12

const truncate = (cell: string, width: number): string =>
  cell.length <= width ? cell : `${cell.slice(0, Math.max(0, width - 1))}…`

/** Column widths within `maxWidth`: the widest shrinkable column gives up a character at a time, down to a floor. */
const fitWidths = (natural: Array<number>, maxWidth: number): ReadonlyArray<number> => {
  const widths = [...natural]
  const total = () => widths.reduce((sum, width) => sum + width, 0) + GAP * (widths.length - 1)
  const floor = (i: number) => Math.min(natural[i]!, Math.max(columns[i]![0].length, MIN_SHRUNK_WIDTH))
  while (total() > maxWidth) {
    let widest = -1
    for (const [i, [title]] of columns.entries()) {
      if (shrinkable.has(title) && widths[i]! > floor(i) && (widest < 0 || widths[i]! > widths[widest]!)) widest = i
    }
    if (widest < 0) break
    widths[widest] = widths[widest]! - 1
  }
  return widths
}

/**
 * `keys list`: one row per key, at most `maxWidth` wide (the terminal's width,
 * else 160): a long name or allow-list is cut with an ellipsis rather than
 * widening every row. `keys list --json` has the whole values.
 */
export const keyTable = (
  keys: ReadonlyArray<ApiKey>,
  now: number,
  maxWidth: number = process.stdout.columns ?? DEFAULT_WIDTH
): string => {
  if (keys.length === 0) {
    return "No API keys yet. Create one with `parley keys create --name NAME --models LIST --tools LIST`."
  }
  const rows = [columns.map(([title]) => title), ...keys.map((key) => columns.map(([, cell]) => cell(key, now)))]
  const widths = fitWidths(columns.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))), maxWidth)
  return rows.map((row) =>
    row.map((cell, i) => truncate(cell, widths[i] ?? 0).padEnd(widths[i] ?? 0)).join(" ".repeat(GAP)).trimEnd()
  ).join("\n")
}

export const keySummary = (key: ApiKey): string =>
  [
    `  id:      ${key.id}`,
    `  name:    ${key.name}`,
    `  status:  ${key.status}`,
    `  models:  ${listText(key.allowedModels)}`,
    `  tools:   ${listText(key.allowedTools)}`,
    `  approve: ${listText(key.approvalRequired)}`,
    `  limits:  ${Object.keys(key.limits).length === 0 ? "none" : JSON.stringify(key.limits)}`,
    `  expires: ${key.expiresAt === null ? "never" : minute(key.expiresAt)}`
  ].join("\n")

/** The one time a secret is shown. */
export const secretNotice = (secret: string): string =>
  [
    "",
    "API key (shown only this once; it cannot be shown again, so store it now):",
    "",
    `  ${secret}`,
    "",
    "Send it as the header: Authorization: Bearer <key>"
  ].join("\n")
