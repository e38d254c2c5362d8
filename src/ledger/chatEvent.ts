import type { RunMeter } from "../agent/RunMeter.ts"
import type { RunSummary } from "../agent/RunSummary.ts"
import type { ChatPlan } from "../chat/chatPlan.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { FinishReason } from "../domain/ChatResponse.ts"
import type { ChatProtocolName } from "../domain/protocols.ts"
import type { UsageEvent } from "../domain/UsageEvent.ts"
import type { Outcome } from "../domain/usageOutcomes.ts"
import { type PriceList, requestCost } from "../models/pricing.ts"

/** What POST /chat learns as it goes, set by the route step by step; what is unset never happened. */
export interface ChatFacts {
  /** `Date.now()` when the request arrived. */
  readonly startedAt: number
  /** The chat route's protocol (docs/DESIGN.md §14), by contract name. */
  readonly protocol: ChatProtocolName
  key?: ApiKey
  /**
   * The model the request named: as its protocol read it from the body (`ChatProtocol.namedModel`, so a
   * body that does not decode still names it), then as the decoded request has it.
   */
  model?: string | undefined
  plan?: ChatPlan
  summary?: RunSummary
  /** The limit that refused the request with a 429 (docs/DESIGN.md §11). */
  refusedLimit?: string
}

/** How the answer went out. */
export interface ChatEnding {
  /** The status sent; undefined when nothing was (the client left first). */
  readonly status: number | undefined
  /** `Date.now()` when the first byte of the answer was written. */
  readonly firstByteAt: number | undefined
  /** The request was interrupted: the client left, or the server stopped without waiting for it. */
  readonly cancelled: boolean
}

/** The status of a request whose client left before any answer (nginx's "client closed request"). */
export const CLIENT_LEFT = 499

// The request's own words; capped so a long id cannot bloat the ledger.
const MAX_MODEL_LENGTH = 200

// The model's own reasons all mean the run ended as the model chose (docs/DESIGN.md §7).
const outcomeOfReason = (reason: FinishReason): Outcome =>
  reason === "step-limit" || reason === "timeout" || reason === "error" || reason === "approval-required" ||
    reason === "budget" || reason === "stopped"
    ? reason
    : "finished"

const outcomeOf = (facts: ChatFacts, ending: ChatEnding): Outcome => {
  if (ending.cancelled) return "cancelled"
  if (facts.summary !== undefined) return outcomeOfReason(facts.summary.finishReason)
  if (facts.plan?._tag === "Report" && ending.status === 200) return "validated"
  if (ending.status !== undefined && ending.status >= 400 && ending.status < 500) return "rejected"
  return "error"
}

const orNull = (count: number | undefined): number | null => count ?? null

/** The row's columns a run meter fills: tokens, tool calls, steps and cost (all empty without one). */
export const meteredColumns = (meter: RunMeter | undefined, prices: PriceList) => {
  const usage = meter?.usage ?? {}
  return {
    inputTokens: orNull(usage.inputTokens),
    outputTokens: orNull(usage.outputTokens),
    totalTokens: orNull(usage.totalTokens),
    reasoningTokens: orNull(usage.reasoningTokens),
    cachedInputTokens: orNull(usage.cachedInputTokens),
    toolCalls: meter === undefined ? {} : Object.fromEntries(meter.toolCalls),
    steps: meter?.steps ?? 0,
    costUsd: meter === undefined ? null : requestCost(meter.usageByModel(), prices)
  } satisfies Partial<UsageEvent>
}

/** The ledger row of an authenticated request; undefined for one that never passed authentication. */
export const chatEvent = (
  facts: ChatFacts,
  correlationId: string,
  ending: ChatEnding,
  prices: PriceList,
  now: number
): UsageEvent | undefined => {
  const { key, plan } = facts
  if (key === undefined) return undefined
  const meter = plan?._tag === "Run" ? plan.run.meter : undefined
  return {
    time: new Date(facts.startedAt),
    accountId: key.accountId,
    keyId: key.id,
    correlationId,
    protocol: facts.protocol,
    model: meter?.model ?? facts.model?.slice(0, MAX_MODEL_LENGTH) ?? null,
    target: meter?.target ?? null,
    status: ending.status ?? CLIENT_LEFT,
    outcome: outcomeOf(facts, ending),
    finishReason: facts.summary?.finishReason ?? null,
    refusedLimit: facts.refusedLimit ?? null,
    ...meteredColumns(meter, prices),
    durationMs: now - facts.startedAt,
    firstByteMs: ending.firstByteAt === undefined ? null : ending.firstByteAt - facts.startedAt,
    pruned: plan?._tag === "Run" && plan.pruned
  }
}
