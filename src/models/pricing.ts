import type { AppConfig, ModelPricing } from "../config/AppConfig.ts"

/** The token counts a price applies to (the run's `Usage`, a reservation's estimate). */
export interface PricedUsage {
  readonly inputTokens?: number | undefined
  readonly outputTokens?: number | undefined
  readonly cachedInputTokens?: number | undefined
}

/** Model id (`provider/model`) → its `pricing`, for the models that have one. */
export type PriceList = ReadonlyMap<string, ModelPricing>

export const priceList = (config: AppConfig["Service"]): PriceList =>
  new Map(
    config.providers.flatMap((provider) =>
      provider.models.flatMap((model) =>
        model.pricing === undefined ? [] : [[`${provider.id}/${model.id}`, model.pricing] as const]
      )
    )
  )

const PER_MTOK = 1_000_000

/**
 * The USD cost of the tokens one model used. Input counts include the cached
 * input (as every provider reports them), which costs `cachedInputPerMTok`
 * when given; output counts include reasoning.
 */
export const costOf = (usage: PricedUsage, pricing: ModelPricing): number => {
  const input = usage.inputTokens ?? 0
  const cached = Math.min(usage.cachedInputTokens ?? 0, input)
  const cachedRate = pricing.cachedInputPerMTok ?? pricing.inputPerMTok
  return ((input - cached) * pricing.inputPerMTok + cached * cachedRate +
    (usage.outputTokens ?? 0) * pricing.outputPerMTok) / PER_MTOK
}

/**
 * What a request's model calls cost: each model's tokens at its own price.
 * null when none of the models has a price; a model without one costs 0
 * (docs/DESIGN.md §11).
 */
export const requestCost = (
  byModel: ReadonlyArray<readonly [string, PricedUsage]>,
  prices: PriceList
): number | null => {
  let cost: number | null = null
  for (const [model, usage] of byModel) {
    const pricing = prices.get(model)
    if (pricing !== undefined) cost = (cost ?? 0) + costOf(usage, pricing)
  }
  return cost
}

/**
 * The most the usage could cost on any of `models`, each at its own price:
 * what a call reserves when it may be sent to any of them (a route's
 * targets, docs/DESIGN.md §11). 0 when none has a price.
 */
export const dearestCost = (models: ReadonlyArray<string>, usage: PricedUsage, prices: PriceList): number => {
  let dearest = 0
  for (const model of models) {
    const pricing = prices.get(model)
    if (pricing !== undefined) dearest = Math.max(dearest, costOf(usage, pricing))
  }
  return dearest
}
