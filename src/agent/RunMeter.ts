import type { LanguageModelV4Usage } from "@ai-sdk/provider"
import type { ModelCallUsage } from "../tools/Tool.ts"
import type { Usage } from "./RunSummary.ts"
import { UsageTotals } from "./usage.ts"

/**
 * What one request's run used, for the usage ledger (docs/DESIGN.md §7):
 * every model call it made, the agent's steps and the tools' own calls alike,
 * per model (so each is priced as its model), and the tool calls by name.
 * The agent writes into it as the run goes, so whoever holds it reads what
 * was used however the run ended (finished, failed or cancelled). Hot path:
 * a few additions a step.
 */
export class RunMeter {
  /** The catalog id of the run's model (`provider/model`). */
  readonly model: string
  /** The provider model of the call under way: a route's target, else `model`; its usage is priced as it. */
  private current: string
  private answering: string | undefined = undefined
  private attemptCount = 0
  private stepCount = 0
  private readonly all = new UsageTotals()
  private readonly byModel = new Map<string, UsageTotals>()
  private readonly calls = new Map<string, number>()

  constructor(model: string) {
    this.model = model
    this.current = model
  }

  /** A model call is sent to `target` (a first try, a retry, or a route's next target). */
  attempting(target: string): void {
    this.attemptCount++
    this.current = target
  }

  /** The call under way began its answer: its target is the one serving the request, until another does. */
  answered(): void {
    this.answering = this.current
  }

  /** The provider model that served the last answer begun (docs/DESIGN.md §15); undefined before any. */
  get target(): string | undefined {
    return this.answering
  }

  /** Model calls sent, retries and a route's other targets included. */
  get attempts(): number {
    return this.attemptCount
  }

  /** The agent is about to call its model. */
  startStep(): void {
    this.stepCount++
  }

  /** What one of the agent's model calls used. */
  stepUsage(usage: LanguageModelV4Usage): void {
    this.all.add(usage)
    this.totalsOf(this.current).add(usage)
  }

  /** A tool's own model call (the tools' `UsageSink`). */
  readonly toolUsage = (usage: ModelCallUsage, model: string = this.model): void => {
    this.all.addCounts(usage)
    this.totalsOf(model).addCounts(usage)
  }

  toolCalled(name: string): void {
    this.calls.set(name, (this.calls.get(name) ?? 0) + 1)
  }

  /** The agent's model calls so far. */
  get steps(): number {
    return this.stepCount
  }

  /** Every model call's tokens, summed. */
  get usage(): Usage {
    return this.all.toUsage()
  }

  /** The same, per model id. */
  usageByModel(): ReadonlyArray<readonly [string, Usage]> {
    return [...this.byModel].map(([model, totals]) => [model, totals.toUsage()] as const)
  }

  /** Tool calls by tool name. */
  get toolCalls(): ReadonlyMap<string, number> {
    return this.calls
  }

  private totalsOf(model: string): UsageTotals {
    let totals = this.byModel.get(model)
    if (totals === undefined) {
      totals = new UsageTotals()
      this.byModel.set(model, totals)
    }
    return totals
  }
}
