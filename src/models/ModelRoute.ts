import type { LanguageModelV4 } from "@ai-sdk/provider"
import type { RouteStrategy } from "../config/AppConfig.ts"

/** A provider's model a step can be sent to. */
export interface ModelTarget {
  /** `<provider>/<model>`, as the catalog lists it. */
  readonly id: string
  readonly provider: string
  readonly model: LanguageModelV4
}

/** A `type: "route"` provider's model, its targets built (docs/DESIGN.md §15). */
export interface ModelRoute {
  readonly strategy: RouteStrategy
  readonly targets: ReadonlyArray<{ readonly target: ModelTarget; readonly weight: number }>
  /** Absent: a target has its provider's own timeouts only (docs/DESIGN.md §3.21). */
  readonly firstChunkTimeoutMs?: number | undefined
}

/**
 * The order one request tries a route's targets in: `fallback` as
 * configured; `loadbalance` one picked by weight first, then the others as
 * configured, so a request still falls back when its pick fails.
 */
export const targetOrder = (route: ModelRoute, random: () => number = Math.random): ReadonlyArray<ModelTarget> => {
  const targets = route.targets.map((entry) => entry.target)
  if (route.strategy === "fallback" || targets.length === 1) return targets
  const total = route.targets.reduce((sum, entry) => sum + entry.weight, 0)
  let point = random() * total
  const first = route.targets.findIndex((entry) => (point -= entry.weight) < 0)
  const picked = first === -1 ? targets.length - 1 : first
  return [targets[picked]!, ...targets.filter((_, index) => index !== picked)]
}
