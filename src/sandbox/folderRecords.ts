import { Effect, Option, Schema } from "effect"
import { readdir, readFile, unlink } from "node:fs/promises"
import { join } from "node:path"
import type { LocalSandbox } from "./localSandbox.ts"
import { isSandboxId } from "./Sandbox.ts"
import { SandboxStoreError } from "./sandboxStoreError.ts"
import { FIRST_UID } from "./uidClaims.ts"

/** What versions before the `sandboxes` table wrote beside each workspace. */
const RECORD = "sandbox.json"

const FolderRecord = Schema.Struct({
  id: Schema.String,
  ownerKeyId: Schema.NullOr(Schema.String),
  desktop: Schema.Boolean,
  network: Schema.Boolean,
  createdAt: Schema.String,
  // Records written before uids were allocated lack it: theirs was derived from the id.
  uid: Schema.optional(Schema.Int)
})

const decodeRecord = Schema.decodeUnknownOption(Schema.fromJsonString(FolderRecord))

const legacyUid = (id: string) => FIRST_UID + parseInt(id.slice(4, 10), 16)

const readRecord = (root: string, id: string) =>
  Effect.promise(() => readFile(join(root, id, RECORD), "utf8").catch(() => undefined)).pipe(
    Effect.map((text) =>
      Option.fromUndefinedOr(text).pipe(
        Option.flatMap(decodeRecord),
        Option.filter((record) => record.id === id)
      )
    )
  )

/**
 * Hands every valid `<root>/<id>/sandbox.json` to `save` as a sandbox of
 * `instance` (the host whose disk holds it), then deletes the file: the
 * table is the one record from then on. Unreadable files are left alone.
 */
export const importFolderRecords = <E>(
  root: string,
  instance: string,
  save: (sandbox: LocalSandbox) => Effect.Effect<void, E>
): Effect.Effect<void, E | SandboxStoreError> =>
  Effect.gen(function*() {
    const names = yield* Effect.tryPromise({
      try: () => readdir(root).catch((error) => error.code === "ENOENT" ? [] : Promise.reject(error)),
      catch: (error) => new SandboxStoreError({ message: String(error) })
    })
    for (const id of names.filter(isSandboxId)) {
      const record = yield* readRecord(root, id)
      if (Option.isNone(record)) continue
      const { uid, ...rest } = record.value
      // Counted as used now, as the records migration 16 moved (PARLEY_SANDBOX_IDLE starts with the import).
      const usedAt = new Date()
      yield* save({
        ...rest,
        backend: "local",
        createdAt: new Date(rest.createdAt),
        usedAt,
        uid: uid ?? legacyUid(id),
        instance
      })
      yield* Effect.promise(() => unlink(join(root, id, RECORD)).catch(() => undefined))
    }
  })
