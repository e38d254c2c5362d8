import type { ModelMessage } from "ai"
import { type PruneStage, withoutImages, withShortOutputs } from "./stages.ts"
import type { Counter, ToolDefinition } from "./tokenCount.ts"

export interface PruneResult {
  readonly messages: ReadonlyArray<ModelMessage>
  /** The client message each kept message came from (the input's `origins` of the kept ones). */
  readonly origins: ReadonlyArray<number>
  /** True when the messages sent differ from the ones received (any stage but `none`). */
  readonly pruned: boolean
  /** The stage that brought the input under budget (or the last tried, when the preserved messages alone exceed it). */
  readonly stage: PruneStage
  /** Input tokens sent after pruning: system prompt, tool definitions and kept messages, exact. */
  readonly tokensAfter: number
  /** Client messages dropped. */
  readonly removed: number
}

export interface PruneHistoryInput {
  readonly system: string
  readonly messages: ReadonlyArray<ModelMessage>
  /** Per model message, the index of the client message it came from. */
  readonly origins: ReadonlyArray<number>
  readonly tools: ReadonlyArray<ToolDefinition>
  readonly budget: number
  readonly preserveRecentMessages: number
  readonly counter: Counter
}

type Stage = (message: ModelMessage) => ModelMessage
const asIs: Stage = (message) => message

/** The model messages `[start, end)` of one client message, with its role. */
interface Unit {
  readonly start: number
  readonly end: number
  readonly role: ModelMessage["role"]
}

/** Consecutive messages from the same client message are one unit. */
const unitsOf = (messages: ReadonlyArray<ModelMessage>, origins: ReadonlyArray<number>): Array<Unit> => {
  const units: Array<Unit> = []
  for (let start = 0; start < messages.length;) {
    let end = start + 1
    while (end < messages.length && origins[end] === origins[start]) end++
    // A reply may hold a steering message, even first: a user's message is all user messages.
    let role: ModelMessage["role"] = "user"
    for (let i = start; i < end && role === "user"; i++) role = messages[i]!.role
    units.push({ start, end, role })
    start = end
  }
  return units
}

/** Pricing the older units at one stage, newest first, until they no longer fit. */
interface Walk {
  /** Tokens of the units that fit. */
  readonly sum: number
  /** Whether every older unit fit. */
  readonly fits: boolean
  /** The oldest user unit the kept history can start at, and the tokens from there on. */
  readonly cut: number
  readonly kept: number
}

/**
 * Fits the input into `budget` tokens, in stages (see `PruneStage`). Its
 * unit is the client's message: the model messages that came from one
 * (an assistant turn's steps with their tool results) are kept, changed or
 * dropped together, and counted as one.
 *
 * - The system prompt, tool definitions and history messages with role
 *   `system` are always sent and never changed (clients in simplified form
 *   send their system prompt that way).
 * - The last `preserveRecentMessages` other messages (at least one) are never
 *   changed; the preserved tail extends back to its user message.
 * - Messages are changed or dropped whole, never split: a tool call and its
 *   result share a client message, reasoning stays in its step, and no result
 *   is left without its call. A cut lands only before a user message, so the
 *   kept history never opens with a reply whose question was removed.
 * - Each stage is priced from the newest older message backwards and stops
 *   at the first message over budget, so the work is bounded by the budget,
 *   not by the history. The cheapest form (stage `tool-outputs`) is priced
 *   first: when even it does not fit, messages are dropped and the dearer
 *   forms are never priced. Counts are cached per part, so the stages share
 *   the tokenizing of what they do not change.
 */
export const pruneHistory = (input: PruneHistoryInput): PruneResult => {
  const { budget, counter, messages, origins } = input
  const unitWithin = (unit: Unit, stage: Stage, limit: number): number | false => {
    let sum = 0
    for (let i = unit.start; i < unit.end; i++) {
      const tokens = counter.messageWithin(stage(messages[i]!), limit - sum)
      if (tokens === false) return false
      sum += tokens
    }
    return sum
  }
  const unitTokens = (unit: Unit) => unitWithin(unit, asIs, Infinity) as number

  const units = unitsOf(messages, origins)
  const history: Array<Unit> = []
  let fixed = counter.system(input.system) + counter.tools(input.tools)
  for (const unit of units) {
    if (unit.role === "system") fixed += unitTokens(unit)
    else history.push(unit)
  }

  let tailStart = Math.max(0, history.length - Math.max(1, input.preserveRecentMessages))
  while (tailStart > 0 && history[tailStart]!.role !== "user") tailStart--
  for (let i = tailStart; i < history.length; i++) fixed += unitTokens(history[i]!)
  const room = budget - fixed

  const walk = (stage: Stage): Walk => {
    let sum = 0
    let cut = tailStart
    let kept = 0
    for (let i = tailStart - 1; i >= 0; i--) {
      const tokens = unitWithin(history[i]!, stage, room - sum)
      if (tokens === false) return { sum, fits: false, cut, kept }
      sum += tokens
      if (history[i]!.role === "user") {
        cut = i
        kept = sum
      }
    }
    return { sum, fits: true, cut, kept }
  }

  const result = (stage: PruneStage, transform: Stage, from: number, tokensAfter: number): PruneResult => {
    const kept: Array<ModelMessage> = []
    const keptOrigins: Array<number> = []
    let index = 0
    for (const unit of units) {
      const change = unit.role === "system" || index >= tailStart ? asIs : index >= from ? transform : undefined
      if (unit.role !== "system") index++
      if (change === undefined) continue
      for (let i = unit.start; i < unit.end; i++) {
        kept.push(change(messages[i]!))
        keptOrigins.push(origins[i]!)
      }
    }
    return { messages: kept, origins: keptOrigins, pruned: true, stage, tokensAfter, removed: from }
  }

  const unchanged = (tokensAfter: number): PruneResult => ({
    messages,
    origins,
    pruned: false,
    stage: "none",
    tokensAfter,
    removed: 0
  })

  if (tailStart === 0) return unchanged(fixed)
  const short = walk(withShortOutputs)
  if (!short.fits) return result("messages", withShortOutputs, short.cut, fixed + short.kept)
  const raw = walk(asIs)
  if (raw.fits) return unchanged(fixed + raw.sum)
  const images = walk(withoutImages)
  if (images.fits) return result("images", withoutImages, 0, fixed + images.sum)
  return result("tool-outputs", withShortOutputs, 0, fixed + short.sum)
}
