import type { Brand, ConfigData, ReplyCategory, Store } from "../../domain/JobsiteConfig.ts"

type Position = Store["positions"][number]

interface Opening {
  readonly store: Store
  readonly position: Position
}

/** What configData says, and does not say, about one candidate's message. */
export interface FactSheet {
  readonly brand: Brand
  readonly stores: ReadonlyArray<Store>
  readonly openings: ReadonlyArray<Opening>
  /** Fact lines the reply may state. */
  readonly facts: ReadonlyArray<string>
  /** What the candidate may want that configData lacks: the reply offers to check. */
  readonly unknown: ReadonlyArray<string>
}

const MAX_FACTS = 16

const fold = (text: string) => text.normalize("NFKC").trim().toLowerCase()

const names = (brand: Brand) => [brand.name, ...(brand.aliases ?? [])].map(fold)

/**
 * The brand a reply is about: the one asked for (input, else
 * `preferredBrand`), or the only one configured. A name configData lacks is
 * an error listing the known brands, so the caller can correct itself.
 */
export const resolveBrand = (config: ConfigData, requested: string | undefined): Brand | string => {
  const known = config.brands.map((brand) => brand.name).join(", ")
  if (requested !== undefined && requested.trim() !== "") {
    const wanted = fold(requested)
    const brand = config.brands.find((candidate) => names(candidate).includes(wanted))
    return brand ?? `Unknown brand "${requested}". configData lists: ${known}.`
  }
  const [only, ...others] = config.brands
  if (only !== undefined && others.length === 0) return only
  return `Several brands are configured (${known}): pass \`brand\` or set context.preferredBrand.`
}

// Stores the message names by city, district or store name; all of them when it names none.
const storesFor = (brand: Brand, message: string): ReadonlyArray<Store> => {
  const text = fold(message)
  const named = brand.stores.filter((store) =>
    [store.city, store.district, store.name].some((place) => text.includes(fold(place)))
  )
  return named.length > 0 ? named : brand.stores
}

const openingsFor = (stores: ReadonlyArray<Store>, position: string | undefined) => {
  const all = stores.flatMap((store) => store.positions.map((p): Opening => ({ store, position: p })))
  if (position === undefined || position.trim() === "") return { openings: all, matched: true }
  const wanted = fold(position)
  const matching = all.filter(({ position: p }) => fold(p.title).includes(wanted) || wanted.includes(fold(p.title)))
  return matching.length > 0 ? { openings: matching, matched: true } : { openings: all, matched: false }
}

const place = (store: Store) => `${store.name}, ${store.district}, ${store.city}`

export const titlesOf = (
  openings: ReadonlyArray<Opening>
) => [...new Set(openings.map(({ position }) => position.title))]

/** One line per distinct (title, value), naming the stores it holds for. */
const perPosition = (openings: ReadonlyArray<Opening>, label: string, value: (p: Position) => string) => {
  const grouped = new Map<string, { title: string; text: string; stores: Array<string> }>()
  for (const { store, position } of openings) {
    const text = value(position)
    const key = `${position.title}\u0000${text}`
    const entry = grouped.get(key) ?? { title: position.title, text, stores: [] }
    entry.stores.push(store.name)
    grouped.set(key, entry)
  }
  return [...grouped.values()].map(({ title, text, stores }) => `${title} (${stores.join(", ")}): ${label} ${text}`)
}

/** Requirement or benefit lines; positions listing none are what the reply must offer to check. */
const listed = (openings: ReadonlyArray<Opening>, label: string, pick: (p: Position) => ReadonlyArray<string>) => {
  const withItems = openings.filter(({ position }) => pick(position).length > 0)
  const without = titlesOf(openings.filter(({ position }) => pick(position).length === 0))
  return {
    facts: perPosition(withItems, label, (p) => pick(p).join("; ")),
    unknown: without.map((title) => `${label} of ${title}`)
  }
}

const openingsAt = (store: Store, openings: ReadonlyArray<Opening>) =>
  openings.filter((opening) => opening.store === store)

const policies = (brand: Brand, config: ConfigData) => {
  const contact = brand.contactPolicy ?? config.contactPolicy
  const interview = brand.interviewPolicy ?? config.interviewPolicy
  const contactLines = contact === undefined ? [] : [
    `Contact: ${contact.policy}${contact.channels === undefined ? "" : ` Channels: ${contact.channels.join(", ")}.`}`
  ]
  const interviewLines = interview === undefined ? [] : [
    `Interview: ${interview.policy}`,
    ...(interview.slots === undefined ? [] : [`Interview times: ${interview.slots.join("; ")}`]),
    ...(interview.bring === undefined ? [] : [`Bring to the interview: ${interview.bring.join(", ")}`])
  ]
  return { contactLines, interviewLines }
}

const byCategory = (
  category: ReplyCategory,
  brand: Brand,
  config: ConfigData,
  stores: ReadonlyArray<Store>,
  openings: ReadonlyArray<Opening>
): { facts: ReadonlyArray<string>; unknown: ReadonlyArray<string> } => {
  const { contactLines, interviewLines } = policies(brand, config)
  switch (category) {
    case "firstContact":
      return {
        facts: [
          `Open positions: ${titlesOf(openings).join(", ")}`,
          `Stores: ${stores.map(place).join("; ")}`,
          ...contactLines
        ],
        unknown: []
      }
    case "pay":
      return { facts: perPosition(openings, "pay", (p) => p.pay), unknown: [] }
    case "schedule":
      return { facts: perPosition(openings, "schedule", (p) => p.schedule), unknown: [] }
    case "location":
      return {
        facts: stores.map((store) =>
          `Store ${store.name}: ${store.address}, ${store.district}, ${store.city}; hiring ${
            titlesOf(openingsAt(store, openings)).join(", ") || "no listed positions"
          }`
        ),
        unknown: []
      }
    case "requirements":
      return listed(openings, "requirements", (p) => p.requirements)
    case "benefits":
      return listed(openings, "benefits", (p) => p.benefits)
    case "interviewBooking":
      return {
        facts: [...interviewLines, ...contactLines],
        unknown: interviewLines.length === 0 ? ["how and when interviews take place"] : []
      }
    case "offTopic":
      return { facts: contactLines, unknown: [] }
  }
}

/**
 * The facts for a reply of `category` about `brand`: narrowed to the stores the
 * message names and the position asked about, and never more than configData says.
 */
export const factSheet = (
  config: ConfigData,
  brand: Brand,
  category: ReplyCategory,
  message: string,
  position: string | undefined
): FactSheet => {
  const stores = storesFor(brand, message)
  const { matched, openings } = openingsFor(stores, position)
  const chosen = byCategory(category, brand, config, stores, openings)
  const facts = [
    `Brand: ${brand.name}${brand.description === undefined ? "" : ` — ${brand.description}`}`,
    ...new Set(chosen.facts)
  ].slice(0, MAX_FACTS)
  const unknown = matched ? chosen.unknown : [`a position called "${position}" (not listed)`, ...chosen.unknown]
  return { brand, stores, openings, facts, unknown }
}
