/**
 * How a request ended, as the ledger says it (docs/DESIGN.md §7). The
 * model's own finish reasons (`stop`, `length`, `tool-calls`, …) are all
 * `finished` (the row keeps the reason itself in `finishReason`); parley's
 * limits keep their names; `stopped` a resumable run a client stopped
 * (docs/DESIGN.md §16); `cancelled` is a client that left (or a shutdown
 * that could not wait); `error` a provider failure or anything unexpected,
 * before or after the answer began; `rejected` a request refused after
 * authentication (400, 403, 413: nothing was run); `validated` a
 * `validateOnly` or `contextStrategy: "report"` request answered with its
 * report.
 */
export const outcomes = [
  "finished",
  "step-limit",
  "timeout",
  "approval-required",
  "budget",
  "stopped",
  "cancelled",
  "error",
  "rejected",
  "validated"
] as const

export type Outcome = (typeof outcomes)[number]
