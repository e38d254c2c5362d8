import { Effect } from "effect"
import { mkdir, unlink, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { SandboxStoreError } from "./sandboxStoreError.ts"

/** `<root>/.uids/<uid>` holds the id of the sandbox that has the uid; created exclusively, so two never share one. */
const UIDS = ".uids"
export const FIRST_UID = 1_000_000

/**
 * Host uids for sandbox jails, claimed on the host's own disk: a uid is a
 * resource of the host (the kernel counts processes per user), so the claims
 * live beside the workspaces, not in the shared database.
 */
export const makeUidClaims = (root: string) => {
  const claimFile = (uid: number) => join(root, UIDS, String(uid))

  const prepare = async () => {
    // The root as prepareFolders makes it (sandbox users pass it), the claims closed.
    await mkdir(root, { recursive: true, mode: 0o711 })
    await mkdir(join(root, UIDS), { mode: 0o700 }).catch((error) => {
      if (error.code !== "EEXIST") throw error
    })
  }

  /** True when this call made the claim; false when the uid was taken. */
  const tryClaim = async (uid: number, id: string) => {
    try {
      await writeFile(claimFile(uid), id, { flag: "wx", mode: 0o600 })
      return true
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error
      return false
    }
  }

  const attempt = <A>(what: string, run: () => Promise<A>) =>
    Effect.tryPromise({
      try: run,
      catch: (error) =>
        new SandboxStoreError({ message: `${what}: ${error instanceof Error ? error.message : String(error)}` })
    })

  return {
    /** Claims the lowest uid no other sandbox on this host has. */
    allocate: (id: string) =>
      attempt("Could not allocate a uid for the sandbox", async () => {
        await prepare()
        for (let uid = FIRST_UID;; uid++) if (await tryClaim(uid, id)) return uid
      }),
    /** Claims a uid a sandbox already has (an imported record); it may have its claim already. */
    keep: (uid: number, id: string) =>
      attempt("Could not claim the sandbox's uid", async () => {
        await prepare()
        await tryClaim(uid, id)
      }),
    release: (uid: number) => Effect.promise(() => unlink(claimFile(uid)).catch(() => undefined))
  }
}
