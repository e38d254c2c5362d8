import { Effect } from "effect"
import { chmod, chown, mkdir, rm, stat } from "node:fs/promises"
import { dirname, join } from "node:path"
import type { ClaimFiles } from "./desktopClaim.ts"
import { hostIdentity } from "./jail.ts"
import { SandboxUnavailable } from "./Sandbox.ts"
import type { WorkspaceDisks } from "./workspaceDisks.ts"

/**
 * A sandbox's folders on the host: `<root>/<id>/workspace` and, for desktops, `<root>/<id>/x11` and the files
 * that say which process runs its desktop (desktopClaim.ts).
 */
export interface SandboxFolders {
  readonly workspace: string
  readonly x11: string
  readonly desktop: ClaimFiles
}

export const foldersOf = (root: string, id: string): SandboxFolders => ({
  workspace: join(root, id, "workspace"),
  x11: join(root, id, "x11"),
  desktop: { lock: join(root, id, "desktop.lock"), record: join(root, id, "desktop.json") }
})

// Owned by the sandbox's host user and closed to everyone else.
const ownFolder = async (path: string, uid: number) => {
  await mkdir(path, { recursive: true, mode: 0o700 })
  const identity = hostIdentity(uid)
  if (identity !== undefined) await chown(path, identity.uid, identity.gid)
  await chmod(path, 0o700)
}

const message = (error: unknown) => error instanceof Error ? error.message : String(error)

/** Creates whatever is missing (the CLI may have made the sandbox, or an operator cleared the folder). */
export const prepareFolders = (
  root: string,
  sandbox: { readonly id: string; readonly uid: number; readonly desktop: boolean },
  disks: WorkspaceDisks | undefined
): Effect.Effect<SandboxFolders, SandboxUnavailable> => {
  const folders = foldersOf(root, sandbox.id)
  const identity = hostIdentity(sandbox.uid)
  return Effect.as(
    Effect.tryPromise({
      try: async () => {
        // Other users must reach the sandbox folders (each sandbox runs as its own user), not list them.
        await mkdir(root, { recursive: true, mode: 0o711 })
        await mkdir(join(root, sandbox.id), { recursive: true, mode: 0o711 })
        if (disks !== undefined) {
          await disks.mount(join(root, sandbox.id), folders.workspace, identity?.uid).catch((error) => {
            throw new Error(
              `could not mount its workspace image (${message(error).trim()}); ` +
                "workspace disk caps need loop devices (/dev/loop-control), or set PARLEY_SANDBOX_DISK=0 to go without"
            )
          })
        }
        await ownFolder(folders.workspace, sandbox.uid)
        if (sandbox.desktop) await ownFolder(folders.x11, sandbox.uid)
      },
      catch: (error) =>
        new SandboxUnavailable({
          message: `Could not prepare the sandbox folder under ${root} (PARLEY_SANDBOX_DIR): ${message(error)}`
        })
    }),
    folders
  )
}

/** Symlinks inside are removed, never followed. */
export const removeFolders = (root: string, id: string): Effect.Effect<void> =>
  Effect.promise(() => rm(join(root, id), { recursive: true, force: true }))

/**
 * The first folder on the way to `path` that a sandbox's host user cannot
 * pass (no execute bit for others): bubblewrap, running as that user, then
 * cannot reach the workspace. mkdtemp and many home folders are 0700.
 */
export const closedFolderOnTheWay = async (path: string): Promise<string | undefined> => {
  const parents: Array<string> = []
  for (let folder = dirname(path);; folder = dirname(folder)) {
    parents.unshift(folder)
    if (folder === dirname(folder)) break
  }
  for (const folder of [...parents, path]) {
    const info = await stat(folder).catch(() => undefined)
    if (info !== undefined && (info.mode & 0o001) === 0) return folder
  }
  return undefined
}
