import type { ModelInfo, ModelPrice } from "@pydantic/genai-prices"
import type { ModelConfig, ModelEntry, ModelPricing, ProviderType, VendorProviderType } from "./ProviderConfig.ts"

/**
 * What `@pydantic/genai-prices` knows of one model: its name, context window
 * and prices (docs/DESIGN.md §15). It publishes no output limits, so
 * `maxOutputTokens` comes only from the config file.
 */
export interface CatalogModel {
  readonly name?: string
  readonly contextWindow?: number
  readonly pricing?: ModelPricing
}

export interface ModelCatalog {
  /** The models an entry of `type` without `models` offers (the rule: docs/DESIGN.md §15). */
  readonly offered: (type: VendorProviderType) => ReadonlyArray<ModelConfig>
  /** The catalog's data for a model id of `type`, matched as the package matches ids (dated snapshots, aliases). */
  readonly lookup: (type: VendorProviderType, modelId: string) => CatalogModel | undefined
}

// The package's provider per parley type (`vertex` and `bedrock` entries list their models;
// the catalog fills their data). Azure deployments are named
// after OpenAI's models and priced as OpenAI's (the package's own Azure list is its legacy
// and partner models, and it falls back to OpenAI's for the rest).
const catalogProviderOf: { readonly [T in VendorProviderType]: string } = {
  openai: "openai",
  anthropic: "anthropic",
  google: "google",
  vertex: "google",
  azure: "azure",
  bedrock: "aws",
  mistral: "mistral",
  groq: "groq",
  xai: "x-ai",
  deepseek: "deepseek"
}

/** Where an entry without `models` takes its list from, when that is not its own provider's. */
const offeredFrom: Partial<Record<string, string>> = { azure: "openai" }

// Ids that name something other than a chat model (speech, images, embeddings, search,
// moderation…), which the chat routes cannot call.
const NOT_CHAT =
  /embed|tts|transcri|whisper|realtime|audio|image|ocr|voice|moderation|search|live|sonic|guard|computer-use|research|dall-e|sora|veo|imagen|lyria/i
// `:free`, `:extended`, `ft:` variants are the package's billing variants, not model ids one calls;
// Bedrock's `…-v1:0` suffixes are versions and stay.
const VARIANT = /:[a-z]/i
// The Gemini API and Vertex serve Gemini through `@ai-sdk/google(-vertex)`; the package's
// Google list also has the partner models Vertex serves through other packages.
const servedBy: Partial<Record<string, RegExp>> = { google: /^gemini-/, vertex: /^gemini-/ }

/** The price in force now: the package keeps dated price changes, newest last. */
const currentPrice = (model: ModelInfo, now: Date): ModelPrice => {
  if (!Array.isArray(model.prices)) return model.prices
  for (let index = model.prices.length - 1; index >= 0; index--) {
    const { constraint, prices } = model.prices[index]!
    if (constraint === undefined) return prices
    if ("start_date" in constraint && now >= new Date(constraint.start_date)) return prices
  }
  return model.prices[0]!.prices
}

// A tiered price (more past 200k tokens of a request) is priced at its first tier: the
// ledger prices a request's total, not each call's size (docs/DESIGN.md §7).
const perMTok = (price: ModelPrice[string]): number | undefined =>
  price === undefined ? undefined : typeof price === "number" ? price : price.base

const pricingOf = (price: ModelPrice): ModelPricing | undefined => {
  const input = perMTok(price["input_mtok"])
  const output = perMTok(price["output_mtok"])
  if (input === undefined || output === undefined) return undefined
  const cached = perMTok(price["cache_read_mtok"])
  return { inputPerMTok: input, outputPerMTok: output, ...(cached === undefined ? {} : { cachedInputPerMTok: cached }) }
}

const catalogModel = (model: ModelInfo, price: ModelPrice): CatalogModel => {
  const pricing = pricingOf(price)
  return {
    ...(model.name === undefined ? {} : { name: model.name }),
    ...(model.context_window === undefined ? {} : { contextWindow: model.context_window }),
    ...(pricing === undefined ? {} : { pricing })
  }
}

type Package = typeof import("@pydantic/genai-prices")

const fromPackage = (prices: Package): ModelCatalog => {
  const offeredByType = new Map<VendorProviderType, ReadonlyArray<ModelConfig>>()
  const offered = (type: VendorProviderType): ReadonlyArray<ModelConfig> => {
    const cached = offeredByType.get(type)
    if (cached !== undefined) return cached
    const now = new Date()
    const provider = prices.findProvider({ providerId: offeredFrom[type] ?? catalogProviderOf[type] })
    const served = servedBy[type]
    const models = (provider?.models ?? []).flatMap((model): Array<ModelConfig> => {
      if (model.deprecated === true || model.name === undefined || model.context_window === undefined) return []
      if (VARIANT.test(model.id) || NOT_CHAT.test(model.id) || served?.test(model.id) === false) return []
      const data = catalogModel(model, currentPrice(model, now))
      if (data.pricing === undefined) return []
      return [{ id: model.id, name: model.name, categories: ["chat"], ...data }]
    })
    offeredByType.set(type, models)
    return models
  }
  const lookup = (type: VendorProviderType, modelId: string): CatalogModel | undefined => {
    const found = prices.calcPrice({}, modelId, { providerId: catalogProviderOf[type] })
    return found === null ? undefined : catalogModel(found.model, found.model_price)
  }
  return { offered, lookup }
}

let loading: Promise<ModelCatalog> | undefined

/**
 * The catalog, its package imported on first use only: its data costs ~13 MB
 * of memory, which a gateway of `openai-compatible` providers alone never needs.
 */
export const loadModelCatalog = (): Promise<ModelCatalog> =>
  loading ??= import("@pydantic/genai-prices").then(fromPackage)

/**
 * The models a provider offers: the catalog's list for its type when the
 * entry lists none; else the entry's, each filled from the catalog where the
 * entry is silent. `openai-compatible` servers get no catalog data: the same
 * model id there is someone's own deployment, at its own price and limits.
 */
export const offeredModels = (
  catalog: ModelCatalog | undefined,
  type: ProviderType,
  entries: ReadonlyArray<ModelEntry> | undefined
): ReadonlyArray<ModelConfig> => {
  if (entries === undefined) return catalog === undefined || type === "openai-compatible" ? [] : catalog.offered(type)
  return entries.map((entry) => {
    const known = catalog === undefined || type === "openai-compatible" ? undefined : catalog.lookup(type, entry.id)
    return {
      ...known,
      ...entry,
      name: entry.name ?? known?.name ?? entry.id,
      categories: entry.categories ?? ["chat"]
    }
  })
}
