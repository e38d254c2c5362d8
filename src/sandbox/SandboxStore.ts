import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { rename, rm } from "node:fs/promises"
import { join } from "node:path"
import { importFolderRecords } from "./folderRecords.ts"
import { isSandboxId, type SandboxInfo } from "./Sandbox.ts"
import { SandboxStoreError } from "./sandboxStoreError.ts"
import { makeUidClaims } from "./uidClaims.ts"
import { unmountWorkspace } from "./workspaceDisks.ts"

export { SandboxStoreError } from "./sandboxStoreError.ts"
export { FIRST_UID } from "./uidClaims.ts"

// Postgres returns TIMESTAMPTZ as Date and BOOLEAN as boolean; SQLite gives ISO-8601 text and 0/1.
const Timestamp = Schema.Union([Schema.Date, Schema.DateFromString])
const Flag = Schema.Union([Schema.Boolean, Schema.Number])

const Row = Schema.Struct({
  id: Schema.String,
  owner_key_id: Schema.NullOr(Schema.String),
  owner_account_id: Schema.NullOr(Schema.String),
  desktop: Flag,
  network: Flag,
  created_at: Timestamp,
  uid: Schema.Number,
  instance: Schema.String
})

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const toInfo = (row: typeof Row.Type): SandboxInfo => ({
  id: row.id,
  ownerKeyId: row.owner_key_id,
  ...(row.owner_account_id === null ? {} : { ownerAccountId: row.owner_account_id }),
  desktop: Boolean(row.desktop),
  network: Boolean(row.network),
  createdAt: row.created_at,
  uid: row.uid,
  instance: row.instance
})

const storeError = (what: string) => (error: SqlError.SqlError | Schema.SchemaError) =>
  new SandboxStoreError({ message: `${what}: ${error.message}` })

export interface StoreSettings {
  /** The folder holding one folder per sandbox on this host (`PARLEY_SANDBOX_DIR`). */
  readonly root: string
  /** This instance (`PARLEY_INSTANCE_ID`). */
  readonly instance: string
}

/**
 * Which sandboxes exist, who owns them, what they may do and which instance
 * holds them: rows of the `sandboxes` table, so every instance on one
 * database sees every sandbox (docs/DESIGN.md §8), and the server and the CLI
 * see each other's changes at once. A sandbox's workspace and its host uid
 * stay on the disk of the instance that holds it; only that instance removes
 * it. The jails never see any of this.
 */
export class SandboxStore extends Context.Service<SandboxStore, {
  /** Claims the lowest host uid no other sandbox has (a failed create gives it back with `releaseUid`). */
  readonly allocateUid: (id: string) => Effect.Effect<number, SandboxStoreError>
  readonly releaseUid: (uid: number) => Effect.Effect<void>
  readonly insert: (sandbox: SandboxInfo) => Effect.Effect<void, SandboxStoreError>
  readonly get: (id: string) => Effect.Effect<Option.Option<SandboxInfo>, SandboxStoreError>
  /** Every instance's sandboxes, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<SandboxInfo>, SandboxStoreError>
  /**
   * Deletes the record and the sandbox's whole folder and frees its uid; true
   * when there was a record of this instance (another's is left alone).
   */
  readonly remove: (id: string) => Effect.Effect<boolean, SandboxStoreError>
}>()("parley/sandbox/SandboxStore") {
  static readonly layer = (settings: StoreSettings) => Layer.effect(SandboxStore, makeStore(settings))
}

const makeStore = Effect.fnUntraced(function*({ instance, root }: StoreSettings) {
  const sql = yield* SqlClient.SqlClient
  const uids = makeUidClaims(root)

  const select = (what: string, rows: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
    rows.pipe(
      Effect.flatMap(decodeRows),
      Effect.map((decoded) => decoded.map(toInfo)),
      Effect.mapError(storeError(what))
    )

  const get = (id: string) =>
    isSandboxId(id)
      ? Effect.map(
        select(`Could not read sandbox ${id}`, sql`SELECT * FROM sandboxes WHERE id = ${id}`),
        (found) => Option.fromUndefinedOr(found[0])
      )
      : Effect.succeed(Option.none())

  const insert = (sandbox: SandboxInfo) =>
    sql`INSERT INTO sandboxes ${
      sql.insert({
        id: sandbox.id,
        owner_key_id: sandbox.ownerKeyId,
        owner_account_id: sandbox.ownerAccountId ?? null,
        desktop: sandbox.desktop,
        network: sandbox.network,
        created_at: sandbox.createdAt,
        uid: sandbox.uid,
        instance: sandbox.instance
      })
    } ON CONFLICT (id) DO NOTHING`.pipe(
      Effect.asVoid,
      Effect.mapError(storeError(`Could not record sandbox ${sandbox.id}`))
    )

  const deleteFolder = (id: string) =>
    Effect.tryPromise({
      try: async () => {
        // Out of sight first, then deleted; symlinks inside are not followed.
        const doomed = join(root, `.removed-${id}-${Date.now()}`)
        const moved = await rename(join(root, id), doomed).then(() => true, () => false)
        if (moved) await rm(doomed, { recursive: true, force: true })
      },
      catch: (error) => new SandboxStoreError({ message: `Could not remove sandbox ${id}: ${String(error)}` })
    })

  const remove = Effect.fnUntraced(function*(id: string) {
    if (!isSandboxId(id)) return false
    // The row goes first: from then on no instance finds the sandbox, and of two removers one wins.
    const deleted = yield* sql`DELETE FROM sandboxes WHERE id = ${id} AND instance = ${instance} RETURNING uid`.pipe(
      Effect.mapError(storeError(`Could not remove sandbox ${id}`))
    )
    const uid = (deleted[0] as { readonly uid?: unknown } | undefined)?.uid
    if (typeof uid !== "number") return false
    // Its workspace may be a mounted image (workspaceDisks.ts), which rm cannot delete.
    yield* unmountWorkspace(join(root, id, "workspace"))
    yield* deleteFolder(id)
    yield* uids.release(uid)
    return true
  })

  // Sandboxes recorded in their folders by earlier versions join the table as this instance's.
  yield* importFolderRecords(
    root,
    instance,
    (sandbox) => Effect.andThen(uids.keep(sandbox.uid, sandbox.id), insert(sandbox))
  ).pipe(
    Effect.catch((error) => Effect.logWarning(`Sandboxes recorded in ${root} were not imported: ${error.message}`))
  )

  return SandboxStore.of({
    allocateUid: uids.allocate,
    releaseUid: uids.release,
    insert,
    get,
    list: select("Could not list sandboxes", sql`SELECT * FROM sandboxes ORDER BY created_at, id`),
    remove
  })
})
