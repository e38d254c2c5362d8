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

/**
 * A key's or an account's limits with what is used of each now
 * (`GET path/limits`, docs/DESIGN.md §6); a limit the gateway does not count
 * yet shows its value alone. `round` changes reload it (after a save).
 */
export const LimitsView = ({ client, path, caption, round }: {
  readonly client: Client
  readonly path: string
  readonly caption: string
  readonly round: unknown
}) => {
  const [loaded, reload] = useLoad(() => client.get<LimitsStatus>(`${path}/limits`), [client, path, round])
  if (loaded.state !== "done") return <Pending loaded={loaded} />
  const { limits, consumption } = loaded.value
  const set = limitFields.filter((field) => limits[field.name] !== undefined)
  return (
    <div class="limits-view">
      <h3>{caption}</h3>
      {set.length === 0 ? <p class="muted">No limits.</p> : (
        <ul class="meters">
          {set.map(({ name, label }) => {
            const limit = limits[name]!
            const used = consumption[name]
            return (
              <li key={name}>
                <span class="meter-label" id={`${path}-${name}`}>{label}</span>
                {used === undefined
                  ? (
                    <span>
                      {amount(name, limit)} <span class="muted">(use not counted yet)</span>
                    </span>
                  )
                  : (
                    <>
                      <meter
                        min={0}
                        max={limit}
                        high={limit * 0.8}
                        value={used.used}
                        aria-labelledby={`${path}-${name}`}
                      />
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
      <button type="button" onClick={reload}>
        Refresh<span class="visually-hidden">{` ${caption}`}</span>
      </button>
    </div>
  )
}
