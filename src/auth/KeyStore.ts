import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { AccountStatus } from "../domain/Account.ts"
import { type ApiKey, KeyStatus } from "../domain/ApiKey.ts"
import type { Limits } from "../domain/Limits.ts"
import { LimitsJson, ruleColumns, rulesOf, ruleValues, StringList, Timestamp } from "./ruleColumns.ts"

/**
 * An API key as stored: the record plus the SHA-256 hex of its secret and,
 * during a rotation's grace, of the previous secret with the instant it stops.
 */
export interface StoredKey extends ApiKey {
  readonly secretHash: string
  readonly previousSecretHash: string | null
  readonly previousExpiresAt: Date | null
}

/** A key with what authentication needs of its account. */
export interface KeyWithAccount extends StoredKey {
  readonly accountStatus: AccountStatus
  readonly accountModels: ReadonlyArray<string>
  readonly accountTools: ReadonlyArray<string>
  readonly accountApprovals: ReadonlyArray<string>
  readonly accountLimits: Limits
}

export type KeyChanges = Partial<
  Pick<StoredKey, "name" | "allowedModels" | "allowedTools" | "approvalRequired" | "limits" | "expiresAt">
>

export type KeyStoreError = SqlError.SqlError | Schema.SchemaError

const KeyRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  account_id: Schema.String,
  secret_hash: Schema.String,
  previous_secret_hash: Schema.NullOr(Schema.String),
  previous_expires_at: Schema.NullOr(Timestamp),
  status: KeyStatus,
  ...ruleColumns,
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp),
  expires_at: Schema.NullOr(Timestamp)
})

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))

const KeyWithAccountRow = Schema.Struct({
  ...KeyRow.fields,
  account_status: AccountStatus,
  account_models: StringList,
  account_tools: StringList,
  account_approvals: StringList,
  account_limits: LimitsJson
})

const decodeWithAccount = Schema.decodeUnknownEffect(Schema.Array(KeyWithAccountRow))

const toStoredKey = (row: typeof KeyRow.Type): StoredKey => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  prefix: row.prefix,
  secretHash: row.secret_hash,
  previousSecretHash: row.previous_secret_hash,
  previousExpiresAt: row.previous_expires_at,
  status: row.status,
  ...rulesOf(row),
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at
})

/** SQL access to the `api_keys` table. Knows nothing of caching or secrets. */
export class KeyStore extends Context.Service<KeyStore, {
  readonly insert: (key: StoredKey) => Effect.Effect<void, KeyStoreError>
  /** The key whose current or previous secret has this hash, with its account. */
  readonly findByHash: (secretHash: string) => Effect.Effect<Option.Option<KeyWithAccount>, KeyStoreError>
  /** Every key, or one account's. */
  readonly list: (accountId?: string) => Effect.Effect<ReadonlyArray<StoredKey>, KeyStoreError>
  readonly get: (id: string) => Effect.Effect<Option.Option<StoredKey>, KeyStoreError>
  /** A revoked key stays revoked: only `revoked` may be set on it again. */
  readonly setStatus: (id: string, status: KeyStatus) => Effect.Effect<Option.Option<StoredKey>, KeyStoreError>
  readonly update: (id: string, changes: KeyChanges) => Effect.Effect<Option.Option<StoredKey>, KeyStoreError>
  /**
   * Swaps the secret hash. The replaced secret keeps working until
   * `previousUntil` (null: at once); a secret in grace from an earlier
   * rotation stops at once. Returns the updated key.
   */
  readonly replaceSecret: (
    id: string,
    secretHash: string,
    prefix: string,
    previousUntil: Date | null
  ) => Effect.Effect<Option.Option<StoredKey>, KeyStoreError>
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
            account_id: key.accountId,
            name: key.name,
            prefix: key.prefix,
            secret_hash: key.secretHash,
            previous_secret_hash: key.previousSecretHash,
            previous_expires_at: key.previousExpiresAt,
            status: key.status,
            ...ruleValues(key),
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
        function*(id: string, secretHash: string, prefix: string, previousUntil: Date | null) {
          return yield* sql.withTransaction(Effect.gen(function*() {
            const before = yield* get(id)
            if (Option.isNone(before)) return Option.none()
            const old = before.value
            const previousSecretHash = previousUntil === null ? null : old.secretHash
            yield* sql`UPDATE api_keys SET ${
              sql.update({
                secret_hash: secretHash,
                prefix,
                previous_secret_hash: previousSecretHash,
                previous_expires_at: previousUntil
              })
            } WHERE id = ${id}`
            return Option.some<StoredKey>({
              ...old,
              secretHash,
              prefix,
              previousSecretHash,
              previousExpiresAt: previousUntil
            })
          }))
        }
      )

      const update = Effect.fn("KeyStore.update")(function*(id: string, changes: KeyChanges) {
        const columns: Record<string, string | Date | null> = ruleValues(changes)
        if (changes.name !== undefined) columns.name = changes.name
        if (changes.expiresAt !== undefined) columns.expires_at = changes.expiresAt
        if (Object.keys(columns).length > 0) yield* sql`UPDATE api_keys SET ${sql.update(columns)} WHERE id = ${id}`
        return yield* get(id)
      })

      const findByHash = (secretHash: string) =>
        sql`SELECT k.*, a.status AS account_status, a.allowed_models AS account_models,
              a.allowed_tools AS account_tools, a.approval_required AS account_approvals,
              a.limits AS account_limits
            FROM api_keys k JOIN accounts a ON a.id = k.account_id
            WHERE k.secret_hash = ${secretHash} OR k.previous_secret_hash = ${secretHash}`.pipe(
          Effect.flatMap(decodeWithAccount),
          Effect.map((rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (row): KeyWithAccount => ({
              ...toStoredKey(row),
              accountStatus: row.account_status,
              accountModels: row.account_models,
              accountTools: row.account_tools,
              accountApprovals: row.account_approvals,
              accountLimits: row.account_limits
            }))
          )
        )

      return KeyStore.of({
        insert,
        findByHash,
        list: (accountId) =>
          select(
            accountId === undefined
              ? sql`SELECT * FROM api_keys ORDER BY created_at, id`
              : sql`SELECT * FROM api_keys WHERE account_id = ${accountId} ORDER BY created_at, id`
          ),
        get,
        setStatus,
        update,
        replaceSecret,
        touch: (id, at) => Effect.asVoid(sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id}`)
      })
    })
  )
}
