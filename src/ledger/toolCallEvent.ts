import type { RunMeter } from "../agent/RunMeter.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { UsageEvent } from "../domain/UsageEvent.ts"
import type { PriceList } from "../models/pricing.ts"
import { CLIENT_LEFT, meteredColumns } from "./chatEvent.ts"

/**
 * An /mcp tool call has no run model: the meter's default, under which a
 * tool's own model call reported without a model id counts (no pricing).
 */
export const NO_RUN_MODEL = ""

/** What an /mcp tools/call learned as it went (docs/DESIGN.md §7); what is unset never happened. */
export interface ToolCallFacts {
  /** `Date.now()` when the call arrived. */
  readonly startedAt: number
  readonly key: ApiKey
  /** The tool's own model calls, and the call itself once the tool runs. */
  readonly meter: RunMeter
  /** How the tool's run ended: with an output, or with a failure the client is told. Unset: it never ran. */
  ran?: "finished" | "error"
  /** The limit that refused the call (docs/DESIGN.md §11). */
  refusedLimit?: string
  /** Refused unrun: the tool waits for a person's approval, which /mcp cannot ask for (docs/DESIGN.md §9). */
  refusedForApproval?: true
}

/** Every /mcp call that is answered is answered in a 200 (a JSON-RPC result or error); the outcome says how it went. */
const ANSWERED = 200

/**
 * The ledger row of an /mcp tools/call: `finished` or `error` when the tool
 * ran, `rejected` when it was refused first (an unknown tool, a bad input, a
 * limit: `refusedLimit` names it), `approval-required` when refused because
 * the tool waits for a person, `cancelled` (499) when the client left.
 * The model is the first the tool's own calls used; null when it used none.
 */
export const toolCallEvent = (
  facts: ToolCallFacts,
  correlationId: string,
  cancelled: boolean,
  prices: PriceList,
  now: number
): UsageEvent => ({
  time: new Date(facts.startedAt),
  accountId: facts.key.accountId,
  keyId: facts.key.id,
  correlationId,
  protocol: "mcp",
  model: facts.meter.usageByModel().find(([model]) => model !== NO_RUN_MODEL)?.[0] ?? null,
  // A tool's own model calls are no route's.
  target: null,
  status: cancelled ? CLIENT_LEFT : ANSWERED,
  outcome: cancelled ? "cancelled" : facts.ran ?? (facts.refusedForApproval ? "approval-required" : "rejected"),
  finishReason: null,
  refusedLimit: facts.refusedLimit ?? null,
  ...meteredColumns(facts.meter, prices),
  durationMs: now - facts.startedAt,
  firstByteMs: null,
  pruned: false
})
