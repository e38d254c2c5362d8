import { Context, Effect, Layer } from "effect"
import type { AgentRun } from "../agent/AgentRun.ts"
import { Admission, type Spending } from "../governance/Admission.ts"
import { Approvals } from "../governance/Approvals.ts"
import type { LimitExceeded } from "../governance/limitErrors.ts"
import { claimApprovals } from "./approvalCheck.ts"
import type { RunPlan } from "./chatPlan.ts"
import type { InvalidApproval } from "./planErrors.ts"
import { budgetedRun } from "./runBudget.ts"

type Headers = Readonly<Record<string, string>>
type Run<A, E, R> = (run: AgentRun, headers: Headers) => Effect.Effect<A, E, R>
type Answer<A> = (result: A, headers: Headers) => void

const NOTHING_SPENT: ReturnType<Spending["spent"]> = []

/** What the run spends: its model calls, as its plan will send them; what its meter counts. */
const spendingOf = (plan: RunPlan): Spending => ({
  run: () =>
    budgetedRun({
      entry: plan.entry,
      targets: plan.run.route?.targets,
      system: plan.run.system,
      tools: plan.run.tools.map(({ tool }) => tool),
      messages: plan.run.messages,
      maxOutputTokens: plan.run.maxOutputTokens
    }),
  spent: () => plan.run.meter?.usageByModel() ?? NOTHING_SPENT
})

const make = Effect.gen(function*() {
  const admission = yield* Admission
  const approvals = yield* Approvals

  // Last: a request refused by a limit or a budget leaves its approvals unused (docs/DESIGN.md §10).
  const withApprovals = <A, E, R>(plan: RunPlan, run: Effect.Effect<A, E, R>) =>
    plan.approvals.length === 0 ? run : Effect.andThen(claimApprovals(plan.approvals, approvals), run)

  const admitted = <A, E, R>(
    plan: RunPlan,
    run: Run<A, E, R>,
    answer: Answer<A>
  ): Effect.Effect<void, E | LimitExceeded | InvalidApproval, R> =>
    admission.admit(
      plan.run.key,
      spendingOf(plan),
      ({ budget, headers }) =>
        withApprovals(plan, run(budget === undefined ? plan.run : { ...plan.run, budget }, headers)),
      answer
    )

  return { admitted }
})

/** A chat run's admission (`governance/Admission.ts`, docs/DESIGN.md §10, §11, §14), and the approvals it carries out. */
export class Governance extends Context.Service<Governance, {
  /**
   * Admits a planned run as every request is admitted: the key's request
   * limits (a 429 and its `Retry-After`), then its budgets (the first model
   * call reserved, a 429 when it does not fit); then claims the approvals it
   * carries out, so each runs its call once. `run` gets the run with its
   * budget and the admission's `RateLimit-*` headers; `answer` writes the
   * result once the budget is settled, while the request still counts as in flight.
   */
  readonly admitted: <A, E, R>(
    plan: RunPlan,
    run: Run<A, E, R>,
    answer: Answer<A>
  ) => Effect.Effect<void, E | LimitExceeded | InvalidApproval, R>
}>()("parley/chat/Governance") {
  static readonly layer = Layer.effect(Governance, make)
}
