import { Context, Effect, Layer, Option, Schema } from "effect"
import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { isSandboxId, type SandboxInfo } from "./Sandbox.ts"
import { unmountWorkspace } from "./workspaceDisks.ts"

export class SandboxStoreError extends Schema.TaggedError<SandboxStoreError>()("SandboxStoreError", {
  message: Schema.String
}) {}

const Record = Schema.Struct({
  id: Schema.String,
  ownerKeyId: Schema.NullOr(Schema.String),
  ownerAccountId: Schema.optional(Schema.String),
  desktop: Schema.Boolean,
  network: Schema.Boolean,
  createdAt: Schema.String,
  // Records written before uids were allocated lack it: theirs was derived from the id.
  uid: Schema.optional(Schema.Int)
})

const decodeRecord = Schema.decodeUnknownOption(Schema.fromJsonString(Record))

const RECORD = "sandbox.json"
/** `<root>/.uids/<uid>` holds the id of the sandbox that has the uid; created exclusively, so two never share one. */
const UIDS = ".uids"
export const FIRST_UID = 1_000_000

const legacyUid = (id: string) => FIRST_UID + parseInt(id.slice(4, 10), 16)

const attempt = <A>(what: string, run: () => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (error) =>
      new SandboxStoreError({ message: `${what}: ${error instanceof Error ? error.message : String(error)}` })
  })

const isMissing = (error: unknown) => (error as { code?: string } | null)?.code === "ENOENT"

/**
 * Which sandboxes exist, who owns them and what they may do: one
 * `sandbox.json` per sandbox folder, beside its workspace. A sandbox lives on
 * the host that holds its workspace, so its record does too; the server and
 * the CLI share the folder (`PARLEY_SANDBOX_DIR`) and see each other's changes
 * at once. The jails never see these files.
 */
export class SandboxStore extends Context.Service<SandboxStore, {
  /** Claims the lowest host uid no other sandbox has (a failed create gives it back with `releaseUid`). */
  readonly allocateUid: (id: string) => Effect.Effect<number, SandboxStoreError>
  readonly releaseUid: (uid: number) => Effect.Effect<void>
  readonly insert: (sandbox: SandboxInfo) => Effect.Effect<void, SandboxStoreError>
  readonly get: (id: string) => Effect.Effect<Option.Option<SandboxInfo>, SandboxStoreError>
  readonly list: Effect.Effect<ReadonlyArray<SandboxInfo>, SandboxStoreError>
  /** Deletes the record and the sandbox's whole folder and frees its uid; true when there was a record. */
  readonly remove: (id: string) => Effect.Effect<boolean, SandboxStoreError>
}>()("parley/sandbox/SandboxStore") {
  static readonly layer = (root: string) => Layer.succeed(SandboxStore, SandboxStore.of(makeStore(root)))
}

const makeStore = (root: string): SandboxStore["Service"] => {
  const read = (id: string) =>
    attempt(`Could not read sandbox ${id}`, async () => {
      try {
        return await readFile(join(root, id, RECORD), "utf8")
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    }).pipe(Effect.map((text) =>
      Option.flatMap(Option.fromUndefinedOr(text), decodeRecord).pipe(
        Option.filter((record) => record.id === id),
        Option.map((record): SandboxInfo => ({
          ...record,
          createdAt: new Date(record.createdAt),
          uid: record.uid ?? legacyUid(record.id)
        }))
      )
    ))

  const get = (id: string) => isSandboxId(id) ? read(id) : Effect.succeed(Option.none())

  const list = Effect.gen(function*() {
    const names = yield* attempt("Could not list sandboxes", async () => {
      try {
        return await readdir(root)
      } catch (error) {
        if (isMissing(error)) return []
        throw error
      }
    })
    const found = yield* Effect.forEach(names.filter(isSandboxId), get, { concurrency: 16 })
    return found.flatMap(Option.toArray).sort((a, b) =>
      a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id)
    )
  })

  const claimFile = (uid: number) => join(root, UIDS, String(uid))
  const releaseUid = (uid: number) => Effect.promise(() => unlink(claimFile(uid)).catch(() => undefined))

  const allocateUid = (id: string) =>
    Effect.flatMap(list, (sandboxes) =>
      attempt("Could not allocate a uid for the sandbox", async () => {
        // Records from before the claim files hold uids too.
        const taken = new Set(sandboxes.map((sandbox) => sandbox.uid))
        // The root as prepareFolders makes it (sandbox users pass it), the claims closed.
        await mkdir(root, { recursive: true, mode: 0o711 })
        await mkdir(join(root, UIDS), { mode: 0o700 }).catch((error) => {
          if (error.code !== "EEXIST") throw error
        })
        for (let uid = FIRST_UID;; uid++) {
          if (taken.has(uid)) continue
          try {
            await writeFile(claimFile(uid), id, { flag: "wx", mode: 0o600 })
            return uid
          } catch (error) {
            if ((error as { code?: string }).code !== "EEXIST") throw error
          }
        }
      }))

  return {
    allocateUid,
    releaseUid,
    insert: (sandbox) =>
      attempt(`Could not record sandbox ${sandbox.id}`, async () => {
        const folder = join(root, sandbox.id)
        await mkdir(folder, { recursive: true, mode: 0o711 })
        const record = { ...sandbox, createdAt: sandbox.createdAt.toISOString() }
        // Written whole, then renamed: a reader sees no record or a complete one.
        await writeFile(join(folder, `${RECORD}.tmp`), JSON.stringify(record), { mode: 0o600 })
        await rename(join(folder, `${RECORD}.tmp`), join(folder, RECORD))
      }),
    get,
    list,
    remove: (id) =>
      Effect.gen(function*() {
        const found = yield* get(id)
        if (Option.isNone(found)) return false
        // Its workspace may be a mounted image (workspaceDisks.ts), which rm cannot delete.
        yield* unmountWorkspace(join(root, id, "workspace"))
        const removed = yield* attempt(`Could not remove sandbox ${id}`, async () => {
          // Out of sight first (the record goes with it), then deleted; symlinks inside are not followed.
          const doomed = join(root, `.removed-${id}-${Date.now()}`)
          try {
            await rename(join(root, id), doomed)
          } catch (error) {
            if (isMissing(error)) return false // removed meanwhile by another process
            throw error
          }
          await rm(doomed, { recursive: true, force: true })
          return true
        })
        if (removed) yield* releaseUid(found.value.uid)
        return removed
      })
  }
}
