import { Effect } from "effect"
import { execFile } from "node:child_process"
import { chmod, mkdir, open, readdir, rename, rmdir, stat } from "node:fs/promises"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { findOnHost } from "./jail.ts"

const run = promisify(execFile)

/**
 * Each sandbox's workspace as a filesystem of its own: a sparse ext4 image
 * of `PARLEY_SANDBOX_DISK` bytes beside the workspace, loop-mounted over it.
 * A full disk is the sandbox's alone (ENOSPC inside, nothing outside), and
 * the jail's /proc/self/mountinfo shows the image's root, not the host path
 * of the workspace. Why not quotas or a size check: docs/sandboxes.md.
 *
 * An image is mounted when a command first needs it and unmounted when the
 * process that mounted it stops or the sandbox is removed
 * (`unmountWorkspace`), so a mount never outlives its user; a mount left by
 * a killed process is found and used.
 */
export interface WorkspaceDisks {
  /** Mounts the workspace's image, making it first (a workspace with files and no image stays a plain folder). */
  readonly mount: (sandboxFolder: string, workspace: string, uid: number | undefined) => Promise<void>
  /** The mounts this process made. */
  readonly unmountAll: () => Promise<void>
}

const IMAGE = "disk.img"

const isMountPoint = async (path: string) => {
  try {
    const [inner, outer] = await Promise.all([stat(path), stat(dirname(path))])
    return inner.dev !== outer.dev
  } catch {
    return false
  }
}

const hasFiles = async (path: string) => {
  try {
    return (await readdir(path)).length > 0
  } catch {
    return false
  }
}

const program = (name: string) => {
  const path = findOnHost(name)
  if (path === undefined) throw new Error(`${name} is not installed (apt-get install util-linux e2fsprogs)`)
  return path
}

const makeImage = async (image: string, bytes: number, uid: number | undefined) => {
  const partial = `${image}.partial`
  const file = await open(partial, "w", 0o600)
  try {
    await file.truncate(bytes) // sparse: the host disk holds only what is written
  } finally {
    await file.close()
  }
  // No journal: a workspace is scratch space, and the journal alone would take 32 MiB of every image.
  const owner = uid === undefined ? [] : ["-E", `root_owner=${uid}:${uid},nodiscard`]
  await run(program("mkfs.ext4"), ["-q", "-F", "-m", "0", "-O", "^has_journal", ...owner, partial])
  await rename(partial, image)
}

export const makeWorkspaceDisks = (bytes: number): WorkspaceDisks => {
  const mounted = new Set<string>()
  const pending = new Map<string, Promise<void>>()

  const mountOnce = async (sandboxFolder: string, workspace: string, uid: number | undefined) => {
    if (await isMountPoint(workspace)) return
    const image = join(sandboxFolder, IMAGE)
    const imageExists = await stat(image).then(() => true, () => false)
    if (!imageExists) {
      if (await hasFiles(workspace)) return // made before workspaces had images: its files stay where they are
      await makeImage(image, bytes, uid)
    }
    await mkdir(workspace, { recursive: true, mode: 0o700 })
    await run(program("mount"), ["-o", "loop,nosuid,nodev,noatime", "--", image, workspace])
    mounted.add(workspace)
    await rmdir(join(workspace, "lost+found")).catch(() => undefined)
    await chmod(workspace, 0o700)
  }

  return {
    mount: (sandboxFolder, workspace, uid) => {
      // Concurrent commands of one sandbox share one mount.
      const existing = pending.get(workspace)
      if (existing !== undefined) return existing
      const started = mountOnce(sandboxFolder, workspace, uid).finally(() => pending.delete(workspace))
      pending.set(workspace, started)
      return started
    },
    unmountAll: async () => {
      const all = [...mounted]
      mounted.clear()
      await Promise.all(
        all.map((workspace) => run(program("umount"), ["--lazy", "--", workspace]).catch(() => undefined))
      )
    }
  }
}

/**
 * Unmounts a workspace whichever process mounted it (say the server, when
 * the CLI removes the sandbox), so its folder can be deleted.
 */
export const unmountWorkspace = (workspace: string): Effect.Effect<void> =>
  Effect.promise(async () => {
    if (!(await isMountPoint(workspace))) return
    // Lazy: a jail still holding it (it is being killed) cannot keep the folder from being deleted.
    await run(program("umount"), ["--lazy", "--", workspace]).catch(() => undefined)
  })
