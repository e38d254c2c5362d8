import { Context, Effect, Layer, Option } from "effect"
import { allowsTool, type ApiKey, requiresApproval } from "../domain/ApiKey.ts"
import type { SandboxElsewhere } from "../sandbox/Sandbox.ts"
import { type SandboxForbidden, UnknownSandbox, usableSandbox } from "../sandbox/sandboxAccess.ts"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import type { Tool } from "../tools/Tool.ts"
import { ToolNotAllowed, UnknownTool } from "../tools/toolErrors.ts"
import type { Spent } from "./BudgetHold.ts"
import { type BudgetedRun, Budgets, hasBudgets } from "./Budgets.ts"
import { Limiter } from "./Limiter.ts"
import type { LimitExceeded } from "./limitErrors.ts"
import type { RunBudget } from "./RunBudget.ts"

type Headers = Readonly<Record<string, string>>

const NO_HEADERS: Headers = {}

/** What an admitted request may spend of the budgets, and what it used. */
export interface Spending {
  /**
   * A run's model calls: the first is reserved before it runs, the others
   * between steps (docs/DESIGN.md §11); called only when a budget applies.
   * Absent: one tool call, admitted while every budget has room for one
   * unit and charged what the tool's own model calls used.
   */
  readonly run?: (() => BudgetedRun) | undefined
  /** What the request has used so far (its meter's per-model usage): settled when it ends, however it ends. */
  readonly spent: () => Spent
}

/** What an admitted request runs with. */
export interface Admitted {
  /** The `RateLimit-*` headers of its answer; none for a key without request limits. */
  readonly headers: Headers
  /** A run's budgets, which the loop reserves each further model call in; absent for a tool call or no budget. */
  readonly budget: RunBudget | undefined
}

/** The allow-list rule (`Admission.tool`), checked first as for models: a key cannot probe which tools (and MCP servers) exist. */
export const admitTool = (
  key: ApiKey,
  name: string,
  find: (name: string) => Tool | undefined
): Tool | ToolNotAllowed | UnknownTool =>
  !allowsTool(key, name) ? new ToolNotAllowed({ tool: name }) : find(name) ?? new UnknownTool({ tool: name })

const make = Effect.gen(function*() {
  const limiter = yield* Limiter
  const budgets = yield* Budgets
  const sandboxes = yield* Effect.serviceOption(SandboxProvider)

  const sandbox = (
    key: ApiKey,
    tools: ReadonlyArray<Tool>,
    sandboxId: string | null | undefined
  ): Effect.Effect<void, UnknownSandbox | SandboxForbidden | SandboxElsewhere> => {
    if (Option.isNone(sandboxes) || sandboxId === undefined || sandboxId === null || sandboxId === "") {
      return Effect.void
    }
    if (!tools.some((candidate) => candidate.requiresSandbox)) return Effect.void
    return usableSandbox(sandboxes.value, sandboxId, key).pipe(
      Effect.catchTag("SandboxNotFound", () => Effect.fail(new UnknownSandbox({ sandboxId }))),
      Effect.asVoid
    )
  }

  // A key without budgets counts nothing: checked before the run's need is built.
  const budgeted = <A, E, R>(
    key: ApiKey,
    spending: Spending,
    headers: Headers,
    use: (admitted: Admitted) => Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | LimitExceeded, R> => {
    if (!hasBudgets(key)) return use({ headers, budget: undefined })
    const settle = (budget: { readonly end: (spent: Spent) => Effect.Effect<void> }) =>
      Effect.suspend(() => budget.end(spending.spent()))
    if (spending.run === undefined) {
      return Effect.flatMap(budgets.admitCall(key), (call) =>
        call === undefined
          ? use({ headers, budget: undefined })
          : Effect.ensuring(use({ headers, budget: undefined }), settle(call)))
    }
    return Effect.flatMap(budgets.open(key, spending.run()), (budget) =>
      budget === undefined
        ? use({ headers, budget: undefined })
        : Effect.acquireUseRelease(budget.first, () => use({ headers, budget }), () => settle(budget)))
  }

  const admit = <A, B, E, R>(
    key: ApiKey,
    spending: Spending,
    use: (admitted: Admitted) => Effect.Effect<A, E, R>,
    answer: (result: A, headers: Headers) => B
  ): Effect.Effect<B, E | LimitExceeded, R> =>
    Effect.flatMap(limiter.admit(key), (pass) => {
      const headers = pass?.headers ?? NO_HEADERS
      const answered = Effect.map(budgeted(key, spending, headers, use), (result) => answer(result, headers))
      return pass === undefined ? answered : Effect.ensuring(answered, pass.release)
    })

  return Admission.of({ tool: admitTool, needsApproval: requiresApproval, sandbox, admit })
})

/**
 * Governance in one layer (docs/DESIGN.md §11): what a chat run on any door
 * and a tool call through `/mcp` are admitted by, each rule refusing with
 * the same tagged failure on both paths. The paths ask in their own order
 * and say a refusal in their own envelope; what is refused, and why, is
 * decided here.
 */
export class Admission extends Context.Service<Admission, {
  /**
   * The key's allow-list (key ∩ account): the tool named, found by `find`
   * only when the key may use it, so a name off the list is refused as not
   * allowed before its existence is looked at.
   */
  readonly tool: (
    key: ApiKey,
    name: string,
    find: (name: string) => Tool | undefined
  ) => Tool | ToolNotAllowed | UnknownTool
  /**
   * Whether a call of the tool waits for a person (the key's approval list
   * ∪ its account's, docs/DESIGN.md §10): a door that can ask sends an
   * approval request; one that cannot refuses it as `ApprovalRequired`.
   */
  readonly needsApproval: (key: ApiKey, toolName: string) => boolean
  /**
   * When one of `tools` needs a sandbox and `sandboxId` names one: the key
   * may use it (its own or the operator's) and it lives on this instance.
   * A gateway without a sandbox provider has no sandbox tools to protect.
   */
  readonly sandbox: (
    key: ApiKey,
    tools: ReadonlyArray<Tool>,
    sandboxId: string | null | undefined
  ) => Effect.Effect<void, UnknownSandbox | SandboxForbidden | SandboxElsewhere>
  /**
   * Admits a request: the key's and account's request limits
   * (`requestsPerMinute`, `concurrentRequests`), then their token and cost
   * budgets, each refusing with `LimitExceeded` (counted) and holding
   * nothing then. `use` runs admitted; its budgets are settled with what it
   * used however it ends, then `answer` is given its result while the
   * request still counts as in flight.
   */
  readonly admit: <A, B, E, R>(
    key: ApiKey,
    spending: Spending,
    use: (admitted: Admitted) => Effect.Effect<A, E, R>,
    answer: (result: A, headers: Headers) => B
  ) => Effect.Effect<B, E | LimitExceeded, R>
}>()("parley/governance/Admission") {
  static readonly layer = Layer.effect(Admission, make)
}
