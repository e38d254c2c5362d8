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

export const keyTable = (keys: ReadonlyArray<ApiKey>, now: number): string => {
  if (keys.length === 0) {
    return "No API keys yet. Create one with `parley keys create --name NAME --models LIST --tools LIST`."
  }
  const rows = [columns.map(([title]) => title), ...keys.map((key) => columns.map(([, cell]) => cell(key, now)))]
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)))
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd()).join("\n")
}

/** The machine-readable form of a key for `keys list --json`. */
export const keyJson = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  status: key.status,
  allowedModels: key.allowedModels,
  allowedTools: key.allowedTools,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  expiresAt: key.expiresAt?.toISOString() ?? null
})

export const keySummary = (key: ApiKey): string =>
  [
    `  id:      ${key.id}`,
    `  name:    ${key.name}`,
    `  status:  ${key.status}`,
    `  models:  ${listText(key.allowedModels)}`,
    `  tools:   ${listText(key.allowedTools)}`,
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
