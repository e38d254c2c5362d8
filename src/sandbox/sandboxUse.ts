import { Effect, Option, Schedule } from "effect"
import { isSandboxId, type SandboxInfo, SandboxNotFound } from "./Sandbox.ts"
import type { SandboxRecords } from "./SandboxRecords.ts"
import type { SandboxSettings } from "./SandboxSettings.ts"

/**
 * What every backend does with the records: find one, count a use of it, and
 * reclaim those unused for `PARLEY_SANDBOX_IDLE` (docs/DESIGN.md §3.13).
 */
export const makeSandboxUse = (records: SandboxRecords["Service"]) => {
  const get = (id: string): Effect.Effect<SandboxInfo, SandboxNotFound> =>
    isSandboxId(id)
      ? Effect.flatMap(
        Effect.orDie(records.get(id)),
        Option.match({ onNone: () => Effect.fail(new SandboxNotFound({ id })), onSome: Effect.succeed })
      )
      : Effect.fail(new SandboxNotFound({ id }))

  /**
   * Records a use now, unless one was recorded lately (a write per command would cost every command a
   * round trip to the database for a figure counted in hours). A failed write costs the command nothing.
   */
  const touch = (info: SandboxInfo, idleMs: number): Effect.Effect<void> => {
    const now = new Date()
    const every = Math.min(60_000, idleMs / 10)
    if (now.getTime() - info.usedAt.getTime() < every) return Effect.void
    return records.touch(info.id, now).pipe(
      Effect.catch((error) => Effect.logWarning(`Sandbox ${info.id}: ${error.message}`))
    )
  }

  /**
   * Every `reclaimIntervalMs`, hands `remove` each sandbox of this backend that no request used for
   * `idleMs` (0: never); for the life of the scope.
   */
  const reclaimIdle = <E>(
    settings: Pick<SandboxSettings, "backend" | "idleMs" | "reclaimIntervalMs">,
    remove: (info: SandboxInfo) => Effect.Effect<unknown, E>
  ) => {
    if (settings.idleMs <= 0) return Effect.void
    const sweep = Effect.gen(function*() {
      const idle = yield* records.idleSince(new Date(Date.now() - settings.idleMs))
      for (const info of idle.filter((sandbox) => sandbox.backend === settings.backend)) {
        yield* remove(info).pipe(
          Effect.tap(() => Effect.logInfo(`Sandbox ${info.id} reclaimed: unused since ${info.usedAt.toISOString()}`)),
          Effect.catchCause((cause) => Effect.logWarning(`Sandbox ${info.id} was not reclaimed`, cause))
        )
      }
    }).pipe(Effect.catchCause((cause) => Effect.logWarning("Idle sandboxes were not looked for", cause)))
    return Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(settings.reclaimIntervalMs)))
  }

  return { get, touch, reclaimIdle }
}
