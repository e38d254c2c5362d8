import type { UsageEvent } from "../domain/UsageEvent.ts"

/** A ledger row as the columns of `usage_events` (docs/DESIGN.md §7), values as the drivers bind them. */
export const usageEventRow = (event: UsageEvent) => ({
  time: event.time,
  account_id: event.accountId,
  key_id: event.keyId,
  correlation_id: event.correlationId,
  protocol: event.protocol,
  model: event.model,
  target: event.target,
  status: event.status,
  outcome: event.outcome,
  finish_reason: event.finishReason,
  refused_limit: event.refusedLimit,
  input_tokens: event.inputTokens,
  output_tokens: event.outputTokens,
  total_tokens: event.totalTokens,
  reasoning_tokens: event.reasoningTokens,
  cached_input_tokens: event.cachedInputTokens,
  tool_calls: JSON.stringify(event.toolCalls),
  // Summed by the usage queries, which then need not parse `tool_calls`.
  tool_call_count: Object.values(event.toolCalls).reduce((sum, count) => sum + count, 0),
  steps: event.steps,
  duration_ms: event.durationMs,
  first_byte_ms: event.firstByteMs,
  pruned: event.pruned,
  cost_usd: event.costUsd
})

export type UsageEventRow = ReturnType<typeof usageEventRow>
