import type { UIMessage } from "ai"
import { countMessage, countMessageWithin, countSystem, estimateMessage } from "./tokenCount.ts"

export interface PruneResult {
  readonly messages: ReadonlyArray<UIMessage>
  /** True only when at least one message was removed. */
  readonly pruned: boolean
  /**
   * Input tokens before pruning. Exact when nothing was removed; otherwise the
   * messages older than where the budget was decided are estimated (4
   * characters per token), because tokenizing them is the cost pruning avoids.
   */
  readonly tokensBefore: number
  /** Input tokens sent after pruning: system prompt and kept messages, exact. */
  readonly tokensAfter: number
  readonly removed: number
}

/**
 * Removes the oldest history messages until the input fits `budget` tokens.
 *
 * - The system prompt and history messages with role `system` are never
 *   removed (clients in simplified form send their system prompt that way).
 * - The last `preserveRecentMessages` other messages are never removed, and
 *   at least the last one is kept: a model cannot answer an empty history.
 * - The kept history starts at a user message, never with a reply whose
 *   question was removed: the preserved tail extends back to its user
 *   message, and a cut lands only before a user message. Tool calls and
 *   their results share a UIMessage part, and messages are never split, so
 *   calls and results always go together.
 * - Counting runs from the newest message backwards and stops once a message
 *   does not fit: the work is bounded by the budget, not by the history.
 */
export const pruneHistory = (input: {
  readonly system: string
  readonly messages: ReadonlyArray<UIMessage>
  readonly budget: number
  readonly preserveRecentMessages: number
}): PruneResult => {
  const { budget, messages } = input
  const history = messages.filter((message) => message.role !== "system")
  const pinned = messages.filter((message) => message.role === "system")

  let tailStart = Math.max(0, history.length - Math.max(1, input.preserveRecentMessages))
  while (tailStart > 0 && history[tailStart]!.role !== "user") tailStart--

  let kept = pinned.reduce((total, message) => total + countMessage(message), countSystem(input.system))
  for (let i = tailStart; i < history.length; i++) kept += countMessage(history[i]!)

  // Walk back from the tail; `counted` covers history[i..], `kept` history[cut..].
  // `firstUncounted` stays -1 while everything fits: then nothing is pruned.
  let cut = tailStart
  let counted = kept
  let firstUncounted = kept > budget ? tailStart - 1 : -1
  if (firstUncounted === -1) {
    for (let i = tailStart - 1; i >= 0; i--) {
      const tokens = countMessageWithin(history[i]!, budget - counted)
      if (tokens === false) {
        firstUncounted = i
        break
      }
      counted += tokens
      if (history[i]!.role === "user") {
        cut = i
        kept = counted
      }
    }
  }
  if (firstUncounted === -1) {
    return { messages, pruned: false, tokensBefore: counted, tokensAfter: counted, removed: 0 }
  }

  let tokensBefore = counted
  for (let i = 0; i <= firstUncounted; i++) tokensBefore += estimateMessage(history[i]!)
  let historyIndex = 0
  return {
    messages: messages.filter((message) => message.role === "system" || historyIndex++ >= cut),
    pruned: true,
    tokensBefore,
    tokensAfter: kept,
    removed: cut
  }
}
