import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { type ApiKey, KeyStatus } from "../domain/ApiKey.ts"

/** An API key as stored: the record plus the SHA-256 hex of its secret. */
export interface StoredKey extends ApiKey {
  readonly secretHash: string
}

export type KeyStoreError = SqlError.SqlError | Schema.SchemaError

// Postgres returns TIMESTAMPTZ as Date; SQLite stores ISO-8601 text.
const Timestamp = Schema.Union([Schema.Date, Schema.DateFromString])
const StringList = Schema.fromJsonString(Schema.Array(Schema.String))

const KeyRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  secret_hash: Schema.String,
  status: KeyStatus,
  allowed_models: StringList,
  allowed_tools: StringList,
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp),
  expires_at: Schema.NullOr(Timestamp)
})

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))

const toStoredKey = (row: typeof KeyRow.Type): StoredKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  secretHash: row.secret_hash,
  status: row.status,
  allowedModels: row.allowed_models,
  allowedTools: row.allowed_tools,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at
})

/** SQL access to the `api_keys` table. Knows nothing of caching or secrets. */
export class KeyStore extends Context.Service<KeyStore, {
  readonly insert: (key: StoredKey) => Effect.Effect<void, KeyStoreError>
  readonly findByHash: (secretHash: string) => Effect.Effect<Option.Option<StoredKey>, KeyStoreError>
  readonly list: Effect.Effect<ReadonlyArray<StoredKey>, KeyStoreError>
  readonly get: (id: string) => Effect.Effect<Option.Option<StoredKey>, KeyStoreError>
  /** A revoked key stays revoked: only `revoked` may be set on it again. */
  readonly setStatus: (id: string, status: KeyStatus) => Effect.Effect<Option.Option<StoredKey>, KeyStoreError>
  /** Swaps the secret hash; returns the previous hash with the updated key. */
  readonly replaceSecret: (
    id: string,
    secretHash: string,
    prefix: string
  ) => Effect.Effect<Option.Option<{ readonly previousHash: string; readonly key: StoredKey }>, KeyStoreError>
  readonly touch: (id: string, at: Date) => Effect.Effect<void, KeyStoreError>
}>()("parley/auth/KeyStore") {
  static readonly layer = Layer.effect(
    KeyStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const select = (rows: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
        Effect.map(Effect.flatMap(rows, decodeRows), (decoded) => decoded.map(toStoredKey))

      const first = (rows: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
        Effect.map(select(rows), (keys) => Option.fromNullishOr(keys[0]))

      const get = (id: string) => first(sql`SELECT * FROM api_keys WHERE id = ${id}`)

      const insert = Effect.fn("KeyStore.insert")(function*(key: StoredKey) {
        yield* sql`INSERT INTO api_keys ${
          sql.insert({
            id: key.id,
            name: key.name,
            prefix: key.prefix,
            secret_hash: key.secretHash,
            status: key.status,
            allowed_models: JSON.stringify(key.allowedModels),
            allowed_tools: JSON.stringify(key.allowedTools),
            created_at: key.createdAt,
            last_used_at: key.lastUsedAt,
            expires_at: key.expiresAt
          })
        }`
      })

      const setStatus = Effect.fn("KeyStore.setStatus")(function*(id: string, status: KeyStatus) {
        yield* status === "revoked"
          ? sql`UPDATE api_keys SET status = ${status} WHERE id = ${id}`
          : sql`UPDATE api_keys SET status = ${status} WHERE id = ${id} AND status <> 'revoked'`
        return yield* get(id)
      })

      const replaceSecret = Effect.fn("KeyStore.replaceSecret")(
        function*(id: string, secretHash: string, prefix: string) {
          return yield* sql.withTransaction(Effect.gen(function*() {
            const before = yield* get(id)
            if (Option.isNone(before)) return Option.none()
            yield* sql`UPDATE api_keys SET secret_hash = ${secretHash}, prefix = ${prefix} WHERE id = ${id}`
            const key: StoredKey = { ...before.value, secretHash, prefix }
            return Option.some({ previousHash: before.value.secretHash, key })
          }))
        }
      )

      return KeyStore.of({
        insert,
        findByHash: (secretHash) => first(sql`SELECT * FROM api_keys WHERE secret_hash = ${secretHash}`),
        list: select(sql`SELECT * FROM api_keys ORDER BY created_at, id`),
        get,
        setStatus,
        replaceSecret,
        touch: (id, at) => Effect.asVoid(sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id}`)
      })
    })
  )
}
