import { Context, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { migrations, migrationsTable } from "./Migrations.ts"

// A store that takes longer than this to answer one tiny query is not ready (a pool waiting to connect waits longer).
const ANSWER_WITHIN = Duration.seconds(2)

/** The newest migration this build knows: the number its name starts with. */
const latestKnown = Math.max(...Object.keys(migrations).map((name) => Number.parseInt(name, 10)))

const describe = (error: unknown): string => {
  const cause = (error as { cause?: unknown }).cause
  const text = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error)
  return text.replace(/\s+/g, " ").trim()
}

/**
 * Whether the store answers with the schema this build expects, for
 * `/ready` (docs/DESIGN.md §8): one read of the migrations table, bounded in
 * time. The reason names what is wrong, never the database URL.
 */
export class StoreHealth extends Context.Service<StoreHealth, {
  /** Undefined when ready; else why not. */
  readonly problem: Effect.Effect<string | undefined>
}>()("parley/store/StoreHealth") {
  static readonly layer = Layer.effect(
    StoreHealth,
    Effect.map(Effect.service(SqlClient.SqlClient), (sql) =>
      StoreHealth.of({
        problem: sql<{ readonly latest: number | string | null }>`SELECT MAX(migration_id) AS latest FROM ${
          sql(migrationsTable)
        }`.pipe(
          Effect.map(([row]) => {
            const applied = Number(row?.latest ?? 0)
            return applied >= latestKnown
              ? undefined
              : `migrations: ${
                latestKnown - applied
              } not applied (the database is at ${applied}, this build needs ${latestKnown})`
          }),
          Effect.timeoutOrElse({
            duration: ANSWER_WITHIN,
            orElse: () => Effect.succeed(`store: no answer within ${Duration.format(ANSWER_WITHIN)}`)
          }),
          Effect.catch((error) => Effect.succeed(`store: ${describe(error)}`))
        )
      }))
  )
}
