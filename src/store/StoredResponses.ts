import { Context, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../config/AppConfig.ts"

/** A stored response as kept: its input items and the response object, each as the JSON text it was kept as. */
export interface StoredResponse {
  readonly id: string
  readonly input: string
  readonly response: string
}

/** What a stored response is kept with. */
export interface ResponseToKeep extends StoredResponse {
  readonly keyId: string
}

const HOUR_MS = 3_600_000

/** Where a response is found by its id and its key's: the stored ones, or a WebSocket connection's before them. */
export type ResponseLookup = Pick<StoredResponses["Service"], "get">

/**
 * The Responses door's stored responses (docs/DESIGN.md §14), in the
 * database every instance shares. A response is read and deleted only by
 * the key that stored it: another key's, an expired one and an unknown id
 * are alike absent, so nothing tells them apart. Rows past their expiry
 * are deleted by a sweep every hour (sooner for a shorter retention).
 */
export class StoredResponses extends Context.Service<StoredResponses, {
  /** Keeps the response, or replaces the one kept under its id (a background response's status as it runs). */
  readonly put: (response: ResponseToKeep) => Effect.Effect<void>
  /** The key's response `id`, while it is kept; `undefined` otherwise. */
  readonly get: (id: string, keyId: string) => Effect.Effect<StoredResponse | undefined>
  /** Whether the key's response `id` was there to delete. */
  readonly remove: (id: string, keyId: string) => Effect.Effect<boolean>
  /** Deletes every response past its expiry. */
  readonly sweep: Effect.Effect<void>
}>()("parley/store/StoredResponses") {
  static readonly layerWith = (retentionMs: number) =>
    Layer.effect(
      StoredResponses,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const sweep = Effect.suspend(() => sql`DELETE FROM stored_responses WHERE expires_at <= ${Date.now()}`).pipe(
          Effect.asVoid,
          Effect.catch((error) => Effect.logWarning("Stored responses: deleting expired ones failed", error))
        )
        yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(Math.max(1, Math.min(retentionMs, HOUR_MS)))))
        return StoredResponses.of({
          put: ({ id, input, keyId, response }) => {
            const now = Date.now()
            return sql`INSERT INTO stored_responses ${
              sql.insert({
                id,
                key_id: keyId,
                created_at: now,
                expires_at: now + retentionMs,
                input,
                response
              })
            } ON CONFLICT (id) DO UPDATE SET response = excluded.response`.pipe(Effect.asVoid, Effect.orDie)
          },
          get: (id, keyId) =>
            sql<StoredResponse>`
              SELECT id, input, response FROM stored_responses
              WHERE id = ${id} AND key_id = ${keyId} AND expires_at > ${Date.now()}`.pipe(
              Effect.map((rows) => rows[0]),
              Effect.orDie
            ),
          remove: (id, keyId) =>
            sql`DELETE FROM stored_responses WHERE id = ${id} AND key_id = ${keyId} AND expires_at > ${Date.now()}
              RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
          sweep
        })
      })
    )

  /** Kept for `PARLEY_RESPONSE_RETENTION`, over the configured database. */
  static readonly layer = Layer.unwrap(
    Effect.map(Effect.service(AppConfig), (config) => StoredResponses.layerWith(config.responseRetentionMs))
  )
}
