import { accessSync, constants, lstatSync, readlinkSync, realpathSync } from "node:fs"
import { join } from "node:path"
import type { SandboxLimits } from "./SandboxSettings.ts"

/**
 * The bubblewrap command lines of the local backend. A jail sees the host's
 * system folders read-only, a fresh /proc, /dev and /tmp, its own workspace
 * at /workspace and nothing else: not the gateway's folder, database, config
 * or environment. Inside, the sandbox runs as root of its own user namespace,
 * which maps to one unprivileged host user per sandbox and holds no
 * capabilities outside the jail.
 */

export const WORKSPACE = "/workspace"
/** Where a desktop's X socket lives inside every jail of the sandbox (display :0). */
export const X11_DIR = "/tmp/.X11-unix"
export const DISPLAY = ":0"

const JAIL_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

const firstExecutable = (dirs: ReadonlyArray<string>, program: string): string | undefined => {
  for (const dir of dirs) {
    if (dir === "") continue
    const path = join(dir, program)
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {
      continue
    }
  }
  return undefined
}

/** Where to find a program inside a jail: the jail's PATH over the host's (read-only) system folders. */
export const findInJail = (program: string): string | undefined => firstExecutable(JAIL_PATH.split(":"), program)

/** A host program for the gateway itself (bwrap, prlimit), found on the gateway's PATH. */
export const findOnHost = (program: string): string | undefined =>
  firstExecutable([...(process.env.PATH ?? "").split(":"), ...JAIL_PATH.split(":")], program)

const systemFolders = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"]

// Merged-/usr systems have /bin → usr/bin and so on: the jail gets the same links.
const systemBinds = (): ReadonlyArray<string> => {
  const args: Array<string> = []
  for (const folder of systemFolders) {
    try {
      const stat = lstatSync(folder)
      if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(folder), folder)
      else if (stat.isDirectory()) args.push("--ro-bind", folder, folder)
    } catch {
      continue
    }
  }
  // systemd-resolved points /etc/resolv.conf into /run, which jails do not see.
  try {
    const resolv = realpathSync("/etc/resolv.conf")
    if (!resolv.startsWith("/etc/")) args.push("--ro-bind-try", resolv, resolv)
  } catch {
    // no resolver configured: name lookups fail inside, as outside
  }
  return args
}

let cachedSystemBinds: ReadonlyArray<string> | undefined

export interface JailSpec {
  readonly workspace: string
  readonly network: boolean
  /** Size of the jail's /tmp and of its /dev/shm (tmpfs, so host memory): `PARLEY_SANDBOX_MEMORY`. */
  readonly tmpBytes: number
  /** The sandbox's X socket folder, for desktop sandboxes. */
  readonly x11?: string | undefined
  /**
   * Join a running desktop session (user and pid namespaces passed as
   * file descriptors 3 and 4) so programs started here outlive the command.
   */
  readonly joinSession?: boolean | undefined
}

export const bwrapArgs = (spec: JailSpec, command: ReadonlyArray<string>): ReadonlyArray<string> => {
  const namespaces = spec.joinSession === true
    ? [
      "--userns",
      "3",
      "--pidns",
      "4",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
      ...(spec.network ? [] : ["--unshare-net"])
    ]
    : [
      "--unshare-all",
      // The command itself is the jail's pid 1. Otherwise bubblewrap's own init
      // outlives the bubblewrap the gateway waits for, is handed to the host's
      // init as a zombie and, until that reaps it, counts against the sandbox's
      // process limit (commands in quick succession then cannot start). A
      // desktop keeps bubblewrap's init: it reaps what commands leave running.
      ...(spec.x11 === undefined ? ["--as-pid-1"] : []),
      ...(spec.network ? ["--share-net"] : [])
    ]
  return [
    "--die-with-parent",
    ...namespaces,
    "--uid",
    "0",
    "--gid",
    "0",
    "--hostname",
    "sandbox",
    ...(cachedSystemBinds ??= systemBinds()),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    // Both tmpfs live in host memory, so both are capped; /dev itself (bwrap's
    // uncapped tmpfs holding the device nodes) turns read-only below.
    "--size",
    String(spec.tmpBytes),
    "--tmpfs",
    "/tmp",
    "--size",
    String(spec.tmpBytes),
    "--tmpfs",
    "/dev/shm",
    "--bind",
    spec.workspace,
    WORKSPACE,
    ...(spec.x11 === undefined ? [] : ["--bind", spec.x11, X11_DIR]),
    // The jail's own root (a tmpfs holding the mount points) stays read-only too.
    "--remount-ro",
    "/",
    "--remount-ro",
    "/dev",
    "--chdir",
    WORKSPACE,
    "--clearenv",
    "--setenv",
    "PATH",
    JAIL_PATH,
    "--setenv",
    "HOME",
    WORKSPACE,
    "--setenv",
    "USER",
    "root",
    "--setenv",
    "LANG",
    "C.UTF-8",
    "--setenv",
    "TMPDIR",
    "/tmp",
    ...(spec.x11 === undefined ? [] : ["--setenv", "DISPLAY", DISPLAY]),
    "--",
    ...command
  ]
}

/** `prlimit` options for a command; a desktop's display server gets no CPU-time limit. */
export const limitArgs = (limits: SandboxLimits, options: { readonly cpu: boolean }): ReadonlyArray<string> => [
  `--cpu=${options.cpu ? limits.cpuSeconds : "unlimited"}`,
  `--as=${limits.memoryBytes}`,
  `--nproc=${limits.processes}`,
  `--fsize=${limits.fileSizeBytes}`,
  `--nofile=${limits.openFiles}`,
  "--core=0"
]

/** Only root can run jails as other users (and mount workspace images). */
export const gatewayIsRoot = (): boolean => process.getuid?.() === 0

/**
 * The host user a sandbox runs as when the gateway is root: its own
 * (`SandboxInfo.uid`, allocated by the store), so the process limit, which
 * the kernel counts per user, is the sandbox's own. Otherwise the gateway's
 * own user (undefined).
 */
export const hostIdentity = (uid: number): { readonly uid: number; readonly gid: number } | undefined =>
  gatewayIsRoot() ? { uid, gid: uid } : undefined
