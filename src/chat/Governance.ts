import { Context, Effect, Layer } from "effect"
import type { AgentRun } from "../agent/AgentRun.ts"
import { Approvals } from "../governance/Approvals.ts"
import { Budgets, hasBudgets } from "../governance/Budgets.ts"
import { Limiter } from "../governance/Limiter.ts"
import type { LimitExceeded } from "../governance/limitErrors.ts"
import { claimApprovals } from "./approvalCheck.ts"
import type { RunPlan } from "./chatPlan.ts"
import type { InvalidApproval } from "./planErrors.ts"
import { runBudget } from "./runBudget.ts"

type Headers = Readonly<Record<string, string>>
type Run<A, E, R> = (run: AgentRun, headers: Headers) => Effect.Effect<A, E, R>
type Answer<A> = (result: A, headers: Headers) => void

const NO_HEADERS: Headers = {}

const make = Effect.gen(function*() {
  const limiter = yield* Limiter
  const budgets = yield* Budgets
  const approvals = yield* Approvals

  // The first model call is reserved before the run (a 429 when it does not fit); the last reservation is
  // settled with what the run used however it ends (docs/DESIGN.md §11). Between steps the loop reserves.
  const withBudget = <A, E, R>(plan: RunPlan, use: (run: AgentRun) => Effect.Effect<A, E, R>) => {
    const { key, meter } = plan.run
    // A key without budgets counts nothing: checked before anything is built.
    if (!hasBudgets(key)) return use(plan.run)
    const prompt = {
      entry: plan.entry,
      system: plan.run.system,
      tools: plan.run.tools.map(({ tool }) => tool),
      messages: plan.run.messages,
      maxOutputTokens: plan.run.maxOutputTokens
    }
    return Effect.flatMap(
      runBudget(budgets, key, prompt),
      (budget) =>
        budget === undefined ? use(plan.run) : Effect.acquireUseRelease(
          budget.first,
          () => use({ ...plan.run, budget }),
          () => Effect.suspend(() => budget.end(meter?.usageByModel() ?? []))
        )
    )
  }

  // Last: a request refused by a limit or a budget leaves its approvals unused (docs/DESIGN.md §10).
  const withApprovals = <A, E, R>(plan: RunPlan, run: Effect.Effect<A, E, R>) =>
    plan.approvals.length === 0 ? run : Effect.andThen(claimApprovals(plan.approvals, approvals), run)

  const admitted = <A, E, R>(
    plan: RunPlan,
    run: Run<A, E, R>,
    answer: Answer<A>
  ): Effect.Effect<void, E | LimitExceeded | InvalidApproval, R> =>
    Effect.flatMap(limiter.admit(plan.run.key), (admission) => {
      const headers = admission?.headers ?? NO_HEADERS
      const ran = withBudget(plan, (budgeted) => withApprovals(plan, run(budgeted, headers)))
      const answered = Effect.map(ran, (result) => answer(result, headers))
      return admission === undefined ? answered : Effect.ensuring(answered, admission.release)
    })

  return { admitted }
})

/** Limits, budgets and approvals of a chat run (docs/DESIGN.md §10, §11, §14), in one place. */
export class Governance extends Context.Service<Governance, {
  /**
   * Admits a planned run: the key's request limits (a 429 and its
   * `Retry-After`), then its budgets (the first model call reserved, a 429
   * when it does not fit), then the approvals it carries out (claimed, so
   * each runs its call once). `run` gets the run with its budget and the
   * admission's `RateLimit-*` headers; `answer` writes the result once the
   * budget is settled, while the request still counts as in flight.
   */
  readonly admitted: <A, E, R>(
    plan: RunPlan,
    run: Run<A, E, R>,
    answer: Answer<A>
  ) => Effect.Effect<void, E | LimitExceeded | InvalidApproval, R>
}>()("parley/chat/Governance") {
  static readonly layer = Layer.effect(Governance, make)
}
