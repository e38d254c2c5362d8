import type { UIMessage } from "ai"
import { type PruneStage, withoutImages, withShortOutputs } from "./stages.ts"
import type { Counter, ToolDefinition } from "./tokenCount.ts"

export interface PruneResult {
  readonly messages: ReadonlyArray<UIMessage>
  /** True when the messages sent differ from the ones received (any stage but `none`). */
  readonly pruned: boolean
  /** The stage that brought the input under budget (or the last tried, when the preserved messages alone exceed it). */
  readonly stage: PruneStage
  /** Input tokens sent after pruning: system prompt, tool definitions and kept messages, exact. */
  readonly tokensAfter: number
  readonly removed: number
}

export interface PruneHistoryInput {
  readonly system: string
  readonly messages: ReadonlyArray<UIMessage>
  readonly tools: ReadonlyArray<ToolDefinition>
  readonly budget: number
  readonly preserveRecentMessages: number
  readonly counter: Counter
}

type Stage = (message: UIMessage) => UIMessage
const asIs: Stage = (message) => message

/** Pricing the older messages at one stage, newest first, until they no longer fit. */
interface Walk {
  /** Tokens of the messages that fit. */
  readonly sum: number
  /** Whether every older message fit. */
  readonly fits: boolean
  /** The oldest user message the kept history can start at, and the tokens from there on. */
  readonly cut: number
  readonly kept: number
}

/**
 * Fits the input into `budget` tokens, in stages (see `PruneStage`).
 *
 * - The system prompt, tool definitions and history messages with role
 *   `system` are always sent and never changed (clients in simplified form
 *   send their system prompt that way).
 * - The last `preserveRecentMessages` other messages (at least one) are never
 *   changed; the preserved tail extends back to its user message.
 * - Messages are changed or dropped whole, never split: a tool call and its
 *   result share a part, reasoning stays in its step, and no result is left
 *   without its call. A cut lands only before a user message, so the kept
 *   history never opens with a reply whose question was removed.
 * - Each stage is priced from the newest older message backwards and stops
 *   at the first message over budget, so the work is bounded by the budget,
 *   not by the history. The cheapest form (stage `tool-outputs`) is priced
 *   first: when even it does not fit, messages are dropped and the dearer
 *   forms are never priced. Counts are cached per part, so the stages share
 *   the tokenizing of what they do not change.
 */
export const pruneHistory = (input: PruneHistoryInput): PruneResult => {
  const { budget, counter, messages } = input
  const history: Array<UIMessage> = []
  let fixed = counter.system(input.system) + counter.tools(input.tools)
  for (const message of messages) {
    if (message.role === "system") fixed += counter.message(message)
    else history.push(message)
  }

  let tailStart = Math.max(0, history.length - Math.max(1, input.preserveRecentMessages))
  while (tailStart > 0 && history[tailStart]!.role !== "user") tailStart--
  for (let i = tailStart; i < history.length; i++) fixed += counter.message(history[i]!)
  const room = budget - fixed

  const walk = (stage: Stage): Walk => {
    let sum = 0
    let cut = tailStart
    let kept = 0
    for (let i = tailStart - 1; i >= 0; i--) {
      const tokens = counter.messageWithin(stage(history[i]!), room - sum)
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
    const kept: Array<UIMessage> = []
    let index = 0
    for (const message of messages) {
      if (message.role === "system") kept.push(message)
      else {
        if (index >= tailStart) kept.push(message)
        else if (index >= from) kept.push(transform(message))
        index++
      }
    }
    return { messages: kept, pruned: true, stage, tokensAfter, removed: from }
  }

  const unchanged = (tokensAfter: number): PruneResult => ({
    messages,
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
