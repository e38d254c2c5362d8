import type { ComponentChildren } from "preact"
import type { Limits } from "../../src/domain/Limits.ts"
import type { AdminCatalog } from "../../src/domain/views.ts"
import type { LimitName, Rules } from "../api.ts"
import { AllowListEditor, modelItems, toolItems } from "./AllowListEditor.tsx"

/**
 * What a key or an account may do, edited in one place for both, on creation
 * and later (docs/DESIGN.md §6): the allow-lists, the tools that wait for a
 * person's approval (§10) and the limits (§11).
 */

/** The form's state: limits as typed, so an emptied field is "no limit". */
export interface RulesDraft {
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  readonly approvalRequired: ReadonlyArray<string>
  readonly limits: Readonly<Record<LimitName, string>>
}

export const limitFields: ReadonlyArray<{ readonly name: LimitName; readonly label: string; readonly step: string }> = [
  { name: "requestsPerMinute", label: "Requests per minute", step: "1" },
  { name: "concurrentRequests", label: "Requests at once", step: "1" },
  { name: "tokensPerDay", label: "Tokens per day", step: "1" },
  { name: "costPerMonthUsd", label: "Cost per month (USD)", step: "0.01" }
]

export const draftOf = (rules: Rules): RulesDraft => ({
  allowedModels: rules.allowedModels,
  allowedTools: rules.allowedTools,
  approvalRequired: rules.approvalRequired,
  limits: {
    requestsPerMinute: String(rules.limits.requestsPerMinute ?? ""),
    concurrentRequests: String(rules.limits.concurrentRequests ?? ""),
    tokensPerDay: String(rules.limits.tokensPerDay ?? ""),
    costPerMonthUsd: String(rules.limits.costPerMonthUsd ?? "")
  }
})

/** The body fields the admin API takes; a limit left empty is none. */
export const rulesOf = (draft: RulesDraft): Rules => ({
  allowedModels: draft.allowedModels,
  allowedTools: draft.allowedTools,
  approvalRequired: draft.approvalRequired,
  limits: Object.fromEntries(
    limitFields.flatMap(({ name }) => {
      const typed = draft.limits[name].trim()
      return typed === "" ? [] : [[name, Number(typed)]]
    })
  ) as Limits
})

export const RulesFields = ({ name, subject, catalog, value, onChange, inUse }: {
  /** Prefixes the fields' ids: unique on the page. */
  readonly name: string
  readonly subject: "key" | "account"
  readonly catalog: AdminCatalog
  readonly value: RulesDraft
  readonly onChange: (value: RulesDraft) => void
  /** What is used of the limits now (an existing key's or account's), shown with them. */
  readonly inUse?: ComponentChildren
}) => {
  const whose = subject === "key" ? "it" : "its keys"
  const tools = toolItems(catalog.tools)
  return (
    <>
      <AllowListEditor
        legend={`Models ${whose} may use`}
        name={`${name}-models`}
        allLabel="All models"
        empty="Nothing selected: no model may be used."
        items={modelItems(catalog.models)}
        value={value.allowedModels}
        onChange={(allowedModels) => onChange({ ...value, allowedModels })}
      />
      <AllowListEditor
        legend={`Tools ${whose} may use`}
        name={`${name}-tools`}
        allLabel="All tools"
        empty="Nothing selected: no tool may be used."
        items={tools}
        value={value.allowedTools}
        onChange={(allowedTools) => onChange({ ...value, allowedTools })}
      />
      <AllowListEditor
        legend="Tools that wait for a person's approval"
        name={`${name}-approve`}
        allLabel="Every tool"
        empty={subject === "key"
          ? "None of its own: only those its account names wait for approval."
          : "None: its keys' tools run without approval unless a key names them."}
        items={tools}
        value={value.approvalRequired}
        onChange={(approvalRequired) => onChange({ ...value, approvalRequired })}
      />
      <fieldset class="limits">
        <legend>Limits</legend>
        {subject === "key"
          ? (
            <p class="muted">
              A field left empty is no limit. Its account's limits apply as well, counted over all its keys. Days and
              months are UTC.
            </p>
          )
          : (
            <p class="muted">
              A field left empty is no limit. Counted over all its keys; each key's own limits apply as well. Days and
              months are UTC.
            </p>
          )}
        <div class="limit-fields">
          {limitFields.map((field) => (
            <div key={field.name}>
              <label for={`${name}-${field.name}`}>{field.label}</label>
              <input
                id={`${name}-${field.name}`}
                type="number"
                inputMode={field.step === "1" ? "numeric" : "decimal"}
                min={field.step}
                step={field.step}
                value={value.limits[field.name]}
                onInput={(event) =>
                  onChange({ ...value, limits: { ...value.limits, [field.name]: event.currentTarget.value } })}
              />
            </div>
          ))}
        </div>
        {inUse}
      </fieldset>
    </>
  )
}
