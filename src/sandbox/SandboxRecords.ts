import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { isSandboxId, type SandboxInfo } from "./Sandbox.ts"
import { SandboxStoreError } from "./sandboxStoreError.ts"

// Postgres returns TIMESTAMPTZ as Date and BOOLEAN as boolean; SQLite gives ISO-8601 text and 0/1.
const Timestamp = Schema.Union([Schema.Date, Schema.DateFromString])
const Flag = Schema.Union([Schema.Boolean, Schema.Number])

const Row = Schema.Struct({
  id: Schema.String,
  owner_key_id: Schema.NullOr(Schema.String),
  owner_account_id: Schema.NullOr(Schema.String),
  desktop: Flag,
  network: Flag,
  backend: Schema.Literals(["local", "docker"]),
  instance: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  used_at: Timestamp
})

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const toInfo = (row: typeof Row.Type): SandboxInfo => ({
  id: row.id,
  ownerKeyId: row.owner_key_id,
  ...(row.owner_account_id === null ? {} : { ownerAccountId: row.owner_account_id }),
  desktop: Boolean(row.desktop),
  network: Boolean(row.network),
  backend: row.backend,
  instance: row.instance,
  createdAt: row.created_at,
  usedAt: row.used_at
})

export const storeError = (what: string) => (error: SqlError.SqlError | Schema.SchemaError) =>
  new SandboxStoreError({ message: `${what}: ${error.message}` })

/**
 * The records of every backend's sandboxes (table `sandboxes`): every
 * instance on one database sees every sandbox (docs/DESIGN.md §8), and the
 * server and the CLI see each other's changes at once. What a backend keeps
 * beside a record is its own (`SandboxStore` for `local`, the container's
 * labels for `docker`).
 */
export class SandboxRecords extends Context.Service<SandboxRecords, {
  readonly insert: (sandbox: SandboxInfo) => Effect.Effect<void, SandboxStoreError>
  readonly get: (id: string) => Effect.Effect<Option.Option<SandboxInfo>, SandboxStoreError>
  /** Every backend's and instance's sandboxes, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<SandboxInfo>, SandboxStoreError>
  /** Sandboxes no request used since `before`. */
  readonly idleSince: (before: Date) => Effect.Effect<ReadonlyArray<SandboxInfo>, SandboxStoreError>
  readonly touch: (id: string, at: Date) => Effect.Effect<void, SandboxStoreError>
  /**
   * Deletes the record if it is `backend`'s and `instance`'s (null: whichever
   * instance's); true when this call deleted it, so of two removers one wins.
   */
  readonly remove: (
    id: string,
    backend: SandboxInfo["backend"],
    instance: string | null
  ) => Effect.Effect<boolean, SandboxStoreError>
  /** The id that scopes this database's containers on a shared engine (docs/DESIGN.md §3.13). */
  readonly deployment: Effect.Effect<string, SandboxStoreError>
}>()("parley/sandbox/SandboxRecords") {
  static readonly layer = Layer.effect(SandboxRecords, Effect.map(Effect.service(SqlClient.SqlClient), makeRecords))
}

/** Rows of `sandboxes` (with any other columns, which are left out) as records. */
export const selectRecords = (what: string, rows: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
  rows.pipe(
    Effect.flatMap(decodeRows),
    Effect.map((decoded) => decoded.map(toInfo)),
    Effect.mapError(storeError(what))
  )

function makeRecords(sql: SqlClient.SqlClient): SandboxRecords["Service"] {
  const select = selectRecords

  return {
    insert: (sandbox) =>
      sql`INSERT INTO sandboxes ${
        sql.insert({
          id: sandbox.id,
          owner_key_id: sandbox.ownerKeyId,
          owner_account_id: sandbox.ownerAccountId ?? null,
          desktop: sandbox.desktop,
          network: sandbox.network,
          backend: sandbox.backend,
          instance: sandbox.instance,
          created_at: sandbox.createdAt,
          used_at: sandbox.usedAt
        })
      } ON CONFLICT (id) DO NOTHING`.pipe(
        Effect.asVoid,
        Effect.mapError(storeError(`Could not record sandbox ${sandbox.id}`))
      ),
    get: (id) =>
      isSandboxId(id)
        ? Effect.map(
          select(`Could not read sandbox ${id}`, sql`SELECT * FROM sandboxes WHERE id = ${id}`),
          (found) => Option.fromUndefinedOr(found[0])
        )
        : Effect.succeed(Option.none()),
    list: select("Could not list sandboxes", sql`SELECT * FROM sandboxes ORDER BY created_at, id`),
    idleSince: (before) =>
      select("Could not list idle sandboxes", sql`SELECT * FROM sandboxes WHERE used_at < ${before} ORDER BY used_at`),
    touch: (id, at) =>
      sql`UPDATE sandboxes SET used_at = ${at} WHERE id = ${id}`.pipe(
        Effect.asVoid,
        Effect.mapError(storeError(`Could not record the use of sandbox ${id}`))
      ),
    remove: (id, backend, instance) =>
      (instance === null
        ? sql`DELETE FROM sandboxes WHERE id = ${id} AND backend = ${backend} RETURNING id`
        : sql`DELETE FROM sandboxes WHERE id = ${id} AND backend = ${backend} AND instance = ${instance} RETURNING id`)
        .pipe(
          Effect.map((deleted) => deleted.length > 0),
          Effect.mapError(storeError(`Could not remove sandbox ${id}`))
        ),
    deployment: sql`SELECT id FROM sandbox_deployment`.pipe(
      Effect.map((rows) => String((rows[0] as { readonly id?: unknown } | undefined)?.id ?? "")),
      Effect.mapError(storeError("Could not read the sandbox deployment id"))
    )
  }
}
