import type { LimitsStatus } from "../../src/domain/views.ts"
import type { Client, LimitName } from "../api.ts"
import { Pending, useLoad } from "../ui.tsx"
import { limitFields } from "./RulesFields.tsx"

const amount = (name: LimitName, value: number) =>
  name === "costPerMonthUsd" ? `$${value.toFixed(2)}` : value.toLocaleString("en")

// A request window frees one place at a time; a budget starts again when its UTC day or month does.
const resets = (name: LimitName, resetAt: string | undefined) => {
  if (resetAt === undefined) return null
  if (name === "tokensPerDay" || name === "costPerMonthUsd") {
    return <span class="muted">resets {resetAt.slice(0, 16).replace("T", " ")} UTC</span>
  }
  const seconds = Math.max(0, Math.ceil((Date.parse(resetAt) - Date.now()) / 1000))
  return <span class="muted">frees one in {seconds} s</span>
}

/** Whose limits: a key's or an account's admin API path, and what the page calls it. */
export interface LimitsSubject {
  readonly path: string
  readonly caption: string
}

/** One subject's limits with what is used of each now; a limit the gateway does not count yet shows its value alone. */
const Meters = ({ subject, status }: { readonly subject: LimitsSubject; readonly status: LimitsStatus }) => {
  const { limits, consumption } = status
  const set = limitFields.filter((field) => limits[field.name] !== undefined)
  return (
    <div class="limits-view">
      <h3>{subject.caption}</h3>
      {set.length === 0 ? <p class="muted">No limits.</p> : (
        <ul class="meters">
          {set.map(({ name, label }) => {
            const limit = limits[name]!
            const used = consumption[name]
            const id = `${subject.path}-${name}`
            return (
              <li key={name}>
                <span class="meter-label" id={id}>{label}</span>
                {used === undefined
                  ? (
                    <span>
                      {amount(name, limit)} <span class="muted">(use not counted yet)</span>
                    </span>
                  )
                  : (
                    <>
                      <meter min={0} max={limit} high={limit * 0.8} value={used.used} aria-labelledby={id} />
                      <span>
                        {amount(name, used.used)} of {amount(name, limit)} {resets(name, used.resetAt)}
                      </span>
                    </>
                  )}
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}

/**
 * What is used now of the limits of a key and its account, or of an account
 * (`GET path/limits` of each, docs/DESIGN.md §6), side by side, with one
 * Refresh for all; shown inside the limits the form edits, so a page has one
 * place for limits. `round` changes reload them (after a save).
 */
export const LimitsInUse = ({ client, subjects, round }: {
  readonly client: Client
  readonly subjects: ReadonlyArray<LimitsSubject>
  readonly round: unknown
}) => {
  const paths = subjects.map((subject) => subject.path)
  const [loaded, reload] = useLoad(
    () => Promise.all(paths.map((path) => client.get<LimitsStatus>(`${path}/limits`))),
    [client, paths.join(" "), round]
  )
  return (
    <div class="limits-in-use">
      <p class="muted">In use now:</p>
      {loaded.state !== "done" ? <Pending loaded={loaded} /> : (
        <div class="limits-pair">
          {subjects.map((subject, index) => (
            <Meters key={subject.path} subject={subject} status={loaded.value[index]!} />
          ))}
        </div>
      )}
      <button type="button" onClick={reload}>
        Refresh<span class="visually-hidden">{" what is in use"}</span>
      </button>
    </div>
  )
}
