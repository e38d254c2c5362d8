import { Schema } from "effect"
import type { ProviderConfig } from "./ProviderConfig.ts"

/** How a route orders its targets for a request (docs/DESIGN.md §15). */
export const RouteStrategy = Schema.Literals(["fallback", "loadbalance"])
export type RouteStrategy = typeof RouteStrategy.Type

const RouteTarget = Schema.Struct({
  /** A provider's model, `<provider>/<model>`; never another route. */
  model: Schema.NonEmptyString,
  /** `loadbalance`: how often it is picked first, relative to the others; default 1. */
  weight: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0)))
})

const RouteModelEntry = Schema.Struct({
  id: Schema.NonEmptyString,
  strategy: RouteStrategy,
  targets: Schema.Array(RouteTarget).check(Schema.isMinLength(1)),
  /** A target that sends no part of its answer within this long is left for the next: `5s`, `800ms`, `1m`. */
  firstChunkTimeout: Schema.optionalKey(Schema.String)
})

/** A config file `providers` entry of `type: "route"`: its models are routes over other providers' models. */
export const RouteProviderEntry = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/)),
  type: Schema.Literal("route"),
  models: Schema.Array(RouteModelEntry)
})
export type RouteProviderEntry = typeof RouteProviderEntry.Type

/** A route entry as the file gave it, with where it is, for the problems found once every provider is known. */
export interface RouteEntryAt {
  readonly at: string
  readonly entry: RouteProviderEntry
}

export interface RouteTargetConfig {
  readonly model: string
  readonly weight: number
}

/** One route, checked: the model `<route provider>/<id>`. */
export interface RouteConfig {
  /** `<provider>/<model>`, as keys' allow-lists and requests name it. */
  readonly id: string
  readonly provider: string
  readonly strategy: RouteStrategy
  readonly targets: ReadonlyArray<RouteTargetConfig>
  readonly firstChunkTimeoutMs?: number | undefined
}

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 }

/** `5s`, `800ms`, `1.5m` in ms; undefined when it is not one. */
export const durationMs = (text: string): number | undefined => {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m)$/.exec(text.trim())
  // Whole milliseconds: the timer's unit, and what the admin API shows.
  const ms = match === null ? undefined : Math.round(Number(match[1]) * UNITS[match[2]!]!)
  return ms === undefined || ms <= 0 ? undefined : ms
}

/**
 * The file's `providers` split in two: the routes, whose shape differs, and
 * the rest, each decoded by its own schema (a union would report both
 * shapes' problems for every entry). `at(i)` gives an entry's index in the
 * file from its index in its part, so problems name the field as written.
 */
export const splitRoutes = (json: unknown) => {
  const providers = (json as { readonly providers?: unknown } | null)?.providers
  if (!Array.isArray(providers)) return { json, routes: [], otherIndex: [], routeIndex: [] }
  const isRoute = (entry: unknown) => (entry as { readonly type?: unknown } | null)?.type === "route"
  const indexes = providers.map((_, index) => index)
  return {
    json: { ...json as object, providers: providers.filter((entry) => !isRoute(entry)) },
    routes: providers.filter(isRoute),
    otherIndex: indexes.filter((index) => !isRoute(providers[index])),
    routeIndex: indexes.filter((index) => isRoute(providers[index]))
  }
}

/** A problem line of a part decoded alone (`providers[1].x`) as the file's (`providers[4].x`). */
export const reindexed = (line: string, fileIndex: ReadonlyArray<number>): string =>
  line.replace(/^providers\[(\d+)\]/, (whole, index: string) => {
    const at = fileIndex[Number(index)]
    return at === undefined ? whole : `providers[${at}]`
  })

export const decodeRouteEntries = Schema.decodeUnknownEffect(
  Schema.Struct({ providers: Schema.Array(RouteProviderEntry) }),
  { onExcessProperty: "error", errors: "all" }
)

/**
 * The routes checked against every provider's models (file and environment
 * alike): each target a configured model, not a route, and the timeout a
 * duration. Every problem is named, with where it is.
 */
export const resolveRoutes = (
  entries: ReadonlyArray<RouteEntryAt>,
  providers: ReadonlyArray<ProviderConfig>
): { readonly routes: ReadonlyArray<RouteConfig>; readonly problems: ReadonlyArray<string> } => {
  const models = new Set(providers.flatMap((provider) => provider.models.map((model) => `${provider.id}/${model.id}`)))
  const providerIds = new Set(providers.map((provider) => provider.id))
  const routeIds = new Set(entries.map(({ entry }) => entry.id))
  const problems: Array<string> = []
  const routes: Array<RouteConfig> = []
  const seen = new Set<string>()
  for (const { at, entry } of entries) {
    if (providerIds.has(entry.id) || seen.has(entry.id)) problems.push(`${at}.id: duplicate provider id "${entry.id}"`)
    seen.add(entry.id)
    const ids = new Set<string>()
    for (const [index, model] of entry.models.entries()) {
      const where = `${at}.models[${index}]`
      if (ids.has(model.id)) problems.push(`${where}.id: duplicate model id "${model.id}"`)
      ids.add(model.id)
      const before = problems.length
      for (const [t, target] of model.targets.entries()) {
        const provider = target.model.split("/", 1)[0]!
        if (models.has(target.model)) continue
        if (routeIds.has(provider) && !providerIds.has(provider)) {
          problems.push(`${where}.targets[${t}].model: "${target.model}" is a route; a route targets providers' models`)
        } else {
          problems.push(
            `${where}.targets[${t}].model: unknown model "${target.model}" (give <provider>/<model> of a configured provider)`
          )
        }
      }
      const timeout = model.firstChunkTimeout === undefined ? undefined : durationMs(model.firstChunkTimeout)
      if (model.firstChunkTimeout !== undefined && timeout === undefined) {
        problems.push(
          `${where}.firstChunkTimeout: "${model.firstChunkTimeout}" is not a duration (a positive number with ms, s or m: "5s")`
        )
      }
      if (problems.length > before) continue
      routes.push({
        id: `${entry.id}/${model.id}`,
        provider: entry.id,
        strategy: model.strategy,
        targets: model.targets.map((target) => ({ model: target.model, weight: target.weight ?? 1 })),
        firstChunkTimeoutMs: timeout
      })
    }
  }
  return { routes, problems }
}
