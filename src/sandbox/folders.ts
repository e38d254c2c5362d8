import { Effect } from "effect"
import { chmod, chown, mkdir, rm } from "node:fs/promises"
import { join } from "node:path"
import { hostIdentity } from "./jail.ts"
import { SandboxUnavailable } from "./Sandbox.ts"

/** A sandbox's folders on the host: `<root>/<id>/workspace` and, for desktops, `<root>/<id>/x11`. */
export interface SandboxFolders {
  readonly workspace: string
  readonly x11: string
}

export const foldersOf = (root: string, id: string): SandboxFolders => ({
  workspace: join(root, id, "workspace"),
  x11: join(root, id, "x11")
})

// Owned by the sandbox's host user and closed to everyone else.
const ownFolder = async (path: string, id: string) => {
  await mkdir(path, { recursive: true, mode: 0o700 })
  const identity = hostIdentity(id)
  if (identity !== undefined) await chown(path, identity.uid, identity.gid)
  await chmod(path, 0o700)
}

/** Creates whatever is missing (the CLI may have made the sandbox, or an operator cleared the folder). */
export const prepareFolders = (
  root: string,
  id: string,
  desktop: boolean
): Effect.Effect<SandboxFolders, SandboxUnavailable> => {
  const folders = foldersOf(root, id)
  return Effect.as(
    Effect.tryPromise({
      try: async () => {
        // Other users must reach the sandbox folders (each sandbox runs as its own user), not list them.
        await mkdir(root, { recursive: true, mode: 0o711 })
        await mkdir(join(root, id), { recursive: true, mode: 0o711 })
        await ownFolder(folders.workspace, id)
        if (desktop) await ownFolder(folders.x11, id)
      },
      catch: (error) =>
        new SandboxUnavailable({
          message: `Could not prepare the sandbox folder under ${root} (PARLEY_SANDBOX_DIR): ${
            error instanceof Error ? error.message : String(error)
          }`
        })
    }),
    folders
  )
}

/** Symlinks inside are removed, never followed. */
export const removeFolders = (root: string, id: string): Effect.Effect<void> =>
  Effect.promise(() => rm(join(root, id), { recursive: true, force: true }))
