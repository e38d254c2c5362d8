import type { ProviderView, RouteView } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { count, Pending, Table, timeOfDay, useLoad } from "../ui.tsx"

/** A provider's (or a route target's provider's) cooldown, as every instance sees it (docs/DESIGN.md §15). */
const CooldownState = ({ failures, cooledUntil }: Pick<ProviderView, "failures" | "cooledUntil">) =>
  cooledUntil === null
    ? (
      <span class="state">
        <span class="status ready">ready</span>
        {failures === 0 ? null : <span class="reason">{count(failures, "failure")} in a row, cooldown over</span>}
      </span>
    )
    : (
      <span class="state">
        <span class="status cooling">cooling down</span>
        <span class="reason">
          tried last until{" "}
          <time dateTime={cooledUntil}>
            {timeOfDay(cooledUntil)}
          </time>
          {`, ${count(failures, "failure")} in a row`}
        </span>
      </span>
    )

// A long catalog (a provider offered all of its type's models) stays folded.
const Models = ({ provider }: { readonly provider: ProviderView }) =>
  provider.models.length === 0 ?
    <span class="muted">none</span> :
    (
      <details class="models" open={provider.models.length <= 4}>
        <summary>
          {count(provider.models.length, "model")}
          <span class="visually-hidden">{` of ${provider.id}`}</span>
        </summary>
        <ul>
          {provider.models.map((model) => (
            <li key={model}>
              <code>{model}</code>
            </li>
          ))}
        </ul>
      </details>
    )

const strategy = (route: RouteView) =>
  route.strategy === "fallback" ? "fallback: in this order" : "load balance: one by weight, then the others"

// The last target has none: no one else would answer.
const duration = (ms: number | null) =>
  ms === null
    ? "none: each provider's own timeouts"
    : `${ms < 1000 ? `${ms} ms` : `${ms / 1000} s`} (every target but the last)`

const Targets = ({ route }: { readonly route: RouteView }) => (
  <ol class="targets">
    {route.targets.map((target) => (
      <li key={target.model}>
        <code>{target.model}</code> <span class="muted weight">weight {target.weight}</span>
        <CooldownState failures={target.failures} cooledUntil={target.cooledUntil} />
      </li>
    ))}
  </ol>
)

/**
 * The operator's providers and routes (docs/DESIGN.md §15) over
 * `/admin/v1/providers`, read-only (they are the config file's): each
 * provider's models and cooldown, each route's strategy, targets and their
 * providers' cooldowns, and its first-chunk timeout.
 */
export const Providers = ({ client }: { readonly client: Client }) => {
  const [loaded, reload] = useLoad(
    () => client.get<{ providers: ReadonlyArray<ProviderView>; routes: ReadonlyArray<RouteView> }>("/providers"),
    [client]
  )
  return (
    <>
      <PageTitle text="Providers">
        {loaded.state === "done" ? <button type="button" onClick={reload}>Refresh</button> : null}
      </PageTitle>
      <p class="muted">
        From the config file, read-only here. A provider that fails a route's requests is tried last for a while (1 s,
        doubling while it keeps failing), on every instance alike.
      </p>
      <Pending loaded={loaded} />
      {loaded.state !== "done" ? null : (
        <>
          <h2>Providers</h2>
          <Table
            caption="Providers"
            rowKey={(provider) => provider.id}
            rows={loaded.value.providers}
            columns={[
              { label: "Provider", cell: (provider) => <code>{provider.id}</code> },
              { label: "Models", cell: (provider) => <Models provider={provider} /> },
              { label: "State", cell: (provider) => <CooldownState {...provider} /> }
            ]}
          />
          <h2>Routes</h2>
          {loaded.value.routes.length === 0
            ? <p class="empty">No routes: a provider of type "route" in the config file adds them.</p>
            : (
              <Table
                caption="Routes"
                rowKey={(route) => route.id}
                rows={loaded.value.routes}
                columns={[
                  { label: "Route", cell: (route) => <code class="route-id">{route.id}</code> },
                  { label: "Strategy", cell: strategy },
                  { label: "Targets", cell: (route) => <Targets route={route} /> },
                  { label: "First chunk within", cell: (route) => duration(route.firstChunkTimeoutMs) }
                ]}
              />
            )}
        </>
      )}
    </>
  )
}
