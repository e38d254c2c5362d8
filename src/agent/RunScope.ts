import { Effect, type Exit, Scope } from "effect"

/**
 * The scope of what one /chat run's tools keep for that run alone
 * (`ToolExecution.runScope`: the browser's pages without a sandbox). Made on
 * the run's first tool call, so a run that calls none makes no Scope; closed
 * when the run ends, however it ends.
 */
export class RunScope {
  private scope: Scope.Closeable | undefined = undefined

  /** The run's scope, made now when no tool call asked for it before. */
  get(): Scope.Scope {
    return this.scope ??= Scope.makeUnsafe()
  }

  /** Closes it with how the run ended, waiting for what it holds; nothing when no tool call made it. */
  close(exit: Exit.Exit<unknown, unknown>): Effect.Effect<void> {
    return this.scope === undefined ? Effect.void : Scope.close(this.scope, exit)
  }
}
