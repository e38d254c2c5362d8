import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { type Account, AccountStatus } from "../domain/Account.ts"
import { ruleColumns, rulesOf, ruleValues, Timestamp } from "./ruleColumns.ts"

/** An account as stored: the record plus its password hash (null: cannot sign in). */
export interface StoredAccount extends Account {
  readonly passwordHash: string | null
}

export type AccountStoreError = SqlError.SqlError | Schema.SchemaError

const AccountRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  password_hash: Schema.NullOr(Schema.String),
  status: AccountStatus,
  ...ruleColumns,
  created_at: Timestamp
})

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(AccountRow))

const toStored = (row: typeof AccountRow.Type): StoredAccount => ({
  id: row.id,
  name: row.name,
  email: row.email,
  passwordHash: row.password_hash,
  status: row.status,
  ...rulesOf(row),
  createdAt: row.created_at
})

export type AccountChanges = Partial<
  Pick<
    StoredAccount,
    "name" | "status" | "allowedModels" | "allowedTools" | "approvalRequired" | "limits" | "passwordHash"
  >
>

/** SQL access to the `accounts` table. */
export class AccountStore extends Context.Service<AccountStore, {
  readonly insert: (account: StoredAccount) => Effect.Effect<void, AccountStoreError>
  readonly get: (id: string) => Effect.Effect<Option.Option<StoredAccount>, AccountStoreError>
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<StoredAccount>, AccountStoreError>
  readonly list: Effect.Effect<ReadonlyArray<StoredAccount>, AccountStoreError>
  readonly update: (
    id: string,
    changes: AccountChanges
  ) => Effect.Effect<Option.Option<StoredAccount>, AccountStoreError>
}>()("parley/auth/AccountStore") {
  static readonly layer = Layer.effect(
    AccountStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const select = (rows: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
        Effect.map(Effect.flatMap(rows, decodeRows), (decoded) => decoded.map(toStored))
      const first = (rows: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
        Effect.map(select(rows), (accounts) => Option.fromNullishOr(accounts[0]))
      const get = (id: string) => first(sql`SELECT * FROM accounts WHERE id = ${id}`)

      const update = Effect.fn("AccountStore.update")(function*(id: string, changes: AccountChanges) {
        const columns = ruleValues(changes)
        if (changes.name !== undefined) columns.name = changes.name
        if (changes.status !== undefined) columns.status = changes.status
        if (changes.passwordHash != null) columns.password_hash = changes.passwordHash
        if (Object.keys(columns).length > 0) yield* sql`UPDATE accounts SET ${sql.update(columns)} WHERE id = ${id}`
        return yield* get(id)
      })

      return AccountStore.of({
        insert: (account) =>
          Effect.asVoid(sql`INSERT INTO accounts ${
            sql.insert({
              id: account.id,
              name: account.name,
              email: account.email,
              password_hash: account.passwordHash,
              status: account.status,
              ...ruleValues(account),
              created_at: account.createdAt
            })
          }`),
        get,
        findByEmail: (email) => first(sql`SELECT * FROM accounts WHERE email = ${email}`),
        list: select(sql`SELECT * FROM accounts ORDER BY created_at, id`),
        update
      })
    })
  )
}
