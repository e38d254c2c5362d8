import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { rename, rm } from "node:fs/promises"
import { join } from "node:path"
import { importFolderRecords } from "./folderRecords.ts"
import type { LocalSandbox } from "./localSandbox.ts"
import { isSandboxId } from "./Sandbox.ts"
import { SandboxRecords, selectRecords, storeError } from "./SandboxRecords.ts"
import { SandboxStoreError } from "./sandboxStoreError.ts"
import { makeUidClaims } from "./uidClaims.ts"
import { unmountWorkspace } from "./workspaceDisks.ts"

export type { LocalSandbox } from "./localSandbox.ts"
export { SandboxStoreError } from "./sandboxStoreError.ts"
export { FIRST_UID } from "./uidClaims.ts"

export interface StoreSettings {
  /** The folder holding one folder per sandbox on this host (`PARLEY_SANDBOX_DIR`). */
  readonly root: string
  /** This instance (`PARLEY_INSTANCE_ID`). */
  readonly instance: string
}

/**
 * The `local` backend's sandboxes: their records (`SandboxRecords`) and what
 * this backend keeps beside each, its host uid (table `local_sandboxes`)
 * and, on the disk of the instance that holds it, its folder; only that
 * instance removes it. The jails never see any of this.
 */
export class SandboxStore extends Context.Service<SandboxStore, {
  /** Claims the lowest host uid no other sandbox has (a failed create gives it back with `releaseUid`). */
  readonly allocateUid: (id: string) => Effect.Effect<number, SandboxStoreError>
  readonly releaseUid: (uid: number) => Effect.Effect<void>
  readonly insert: (sandbox: LocalSandbox) => Effect.Effect<void, SandboxStoreError>
  /** A `local` sandbox of any instance, with its uid. */
  readonly get: (id: string) => Effect.Effect<Option.Option<LocalSandbox>, SandboxStoreError>
  /**
   * Deletes the record and the sandbox's whole folder and frees its uid; true
   * when there was a record of this instance (another's is left alone).
   */
  readonly remove: (id: string) => Effect.Effect<boolean, SandboxStoreError>
}>()("parley/sandbox/SandboxStore") {
  static readonly layer = (settings: StoreSettings) =>
    Layer.effect(SandboxStore, makeStore(settings)).pipe(Layer.provideMerge(SandboxRecords.layer))
}

const makeStore = Effect.fnUntraced(function*({ instance, root }: StoreSettings) {
  const sql = yield* SqlClient.SqlClient
  const records = yield* SandboxRecords
  const uids = makeUidClaims(root)

  const uidOf = (id: string) =>
    sql`SELECT uid FROM local_sandboxes WHERE id = ${id}`.pipe(
      Effect.map((rows) => (rows[0] as { readonly uid?: unknown } | undefined)?.uid),
      Effect.map((uid) => typeof uid === "number" ? Option.some(uid) : Option.none()),
      Effect.mapError(storeError(`Could not read sandbox ${id}`))
    )

  // One query, as before records and uids were apart: every command of a local sandbox asks for it.
  const get = (id: string) =>
    isSandboxId(id)
      ? Effect.gen(function*() {
        const rows = yield* sql`SELECT sandboxes.*, local_sandboxes.uid FROM sandboxes
          JOIN local_sandboxes ON local_sandboxes.id = sandboxes.id WHERE sandboxes.id = ${id}`.pipe(
          Effect.mapError(storeError(`Could not read sandbox ${id}`))
        )
        const [record] = yield* selectRecords(`Could not read sandbox ${id}`, Effect.succeed(rows))
        const uid = (rows[0] as { readonly uid?: unknown } | undefined)?.uid
        return record === undefined || typeof uid !== "number"
          ? Option.none<LocalSandbox>()
          : Option.some({ ...record, uid })
      })
      : Effect.succeed(Option.none<LocalSandbox>())

  const insert = ({ uid, ...sandbox }: LocalSandbox) =>
    sql.withTransaction(Effect.andThen(
      records.insert(sandbox),
      sql`INSERT INTO local_sandboxes ${sql.insert({ id: sandbox.id, uid })} ON CONFLICT (id) DO NOTHING`.pipe(
        Effect.mapError(storeError(`Could not record sandbox ${sandbox.id}`))
      )
    )).pipe(
      Effect.catchTag("SqlError", (error) => Effect.fail(storeError(`Could not record sandbox ${sandbox.id}`)(error)))
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
    const uid = yield* uidOf(id)
    // The record goes first: from then on no instance finds the sandbox, and of two removers one wins.
    if (!(yield* records.remove(id, "local", instance)) || Option.isNone(uid)) return false
    yield* sql`DELETE FROM local_sandboxes WHERE id = ${id}`.pipe(
      Effect.mapError(storeError(`Could not remove sandbox ${id}`))
    )
    // Its workspace may be a mounted image (workspaceDisks.ts), which rm cannot delete.
    yield* unmountWorkspace(join(root, id, "workspace"))
    yield* deleteFolder(id)
    yield* uids.release(uid.value)
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
    remove
  })
})
