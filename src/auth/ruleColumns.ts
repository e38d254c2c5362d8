import { Schema } from "effect"
import { Limits } from "../domain/Limits.ts"

/**
 * The columns keys and accounts share: their allow-lists, approvals and
 * limits (docs/DESIGN.md §6), stored as JSON text in SQLite and Postgres alike.
 */

// Postgres returns TIMESTAMPTZ as Date; SQLite stores ISO-8601 text.
export const Timestamp = Schema.Union([Schema.Date, Schema.DateFromString])
export const StringList = Schema.fromJsonString(Schema.Array(Schema.String))
export const LimitsJson = Schema.fromJsonString(Limits)

export const ruleColumns = {
  allowed_models: StringList,
  allowed_tools: StringList,
  approval_required: StringList,
  limits: LimitsJson
}

export interface Rules {
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  readonly approvalRequired: ReadonlyArray<string>
  readonly limits: Limits
}

type RuleRow = Schema.Struct.Type<typeof ruleColumns>

export const rulesOf = (row: RuleRow): Rules => ({
  allowedModels: row.allowed_models,
  allowedTools: row.allowed_tools,
  approvalRequired: row.approval_required,
  limits: row.limits
})

/** The rule columns to write: all of them for an insert, the given ones for an update. */
export const ruleValues = (rules: Partial<Rules>): Record<string, string> => {
  const columns: Record<string, string> = {}
  if (rules.allowedModels !== undefined) columns.allowed_models = JSON.stringify(rules.allowedModels)
  if (rules.allowedTools !== undefined) columns.allowed_tools = JSON.stringify(rules.allowedTools)
  if (rules.approvalRequired !== undefined) columns.approval_required = JSON.stringify(rules.approvalRequired)
  if (rules.limits !== undefined) columns.limits = JSON.stringify(rules.limits)
  return columns
}
