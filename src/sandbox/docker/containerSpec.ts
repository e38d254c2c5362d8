import type Dockerode from "dockerode"
import type { SandboxInfo } from "../Sandbox.ts"
import type { SandboxSettings } from "../SandboxSettings.ts"
import type { EngineKind } from "./engine.ts"
import { supervisorScript } from "./execScripts.ts"
import { LABEL, networkOf } from "./names.ts"

/** The user commands run as inside; no host user, no capabilities. */
export const SANDBOX_USER = "1000:1000"

const PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/**
 * What lives in the sandbox's memory cap besides its processes, as shares of
 * it, so that full tmpfs mounts still leave its processes room (a tmpfs
 * counts against the cap, and one as large as the cap lets a writer starve
 * the whole sandbox): the workspace at most half (less when
 * `PARLEY_SANDBOX_DISK` is smaller), `/tmp` a quarter, `/dev/shm` a sixteenth.
 */
export const memoryShares = (limits: SandboxSettings["limits"]) => {
  const half = Math.floor(limits.memoryBytes / 2)
  return {
    workspaceBytes: limits.diskBytes > 0 ? Math.min(limits.diskBytes, half) : half,
    tmpBytes: Math.floor(limits.memoryBytes / 4),
    shmBytes: Math.floor(limits.memoryBytes / 16)
  }
}

// A tmpfs owned by the sandbox's user: Docker takes uid/gid options, Podman its own `U` (chown to the user).
const ownedBy = (kind: EngineKind) => kind === "podman" ? "U" : "uid=1000,gid=1000"

/**
 * One long-lived container per sandbox: its first process (after the
 * engine's init, which reaps orphans) runs the desktop's display server or a
 * sleep, and stops every command on a signal (`supervisorScript`); commands
 * come as execs. Read-only root, no capabilities, no new
 * privileges, no host path, no engine socket; its workspace and `/tmp` are
 * tmpfs mounts in its memory cap.
 */
export const containerSpec = (
  info: SandboxInfo,
  deployment: string,
  settings: SandboxSettings,
  kind: EngineKind
): Dockerode.ContainerCreateOptions => {
  const { display, limits } = settings
  const shares = memoryShares(limits)
  return {
    name: `parley-${info.id}`,
    Image: settings.docker.image,
    Cmd: [
      "/bin/bash",
      "-c",
      supervisorScript,
      "parley-sandbox",
      ...info.desktop
        ? ["Xvfb", ":0", "-screen", "0", `${display.width}x${display.height}x24`, "-nolisten", "tcp", "-noreset"]
        : ["sleep", "infinity"]
    ],
    User: SANDBOX_USER,
    WorkingDir: "/workspace",
    Env: [
      `PATH=${PATH}`,
      "HOME=/workspace",
      "LANG=C.UTF-8",
      "TMPDIR=/tmp",
      ...info.desktop ? ["DISPLAY=:0"] : []
    ],
    Labels: {
      [LABEL.sandbox]: info.id,
      [LABEL.owner]: info.ownerKeyId ?? "",
      [LABEL.deployment]: deployment
    },
    HostConfig: {
      NetworkMode: info.network ? networkOf(kind, info.id) : "none",
      ReadonlyRootfs: true,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      Init: true,
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      PidsLimit: limits.processes,
      NanoCpus: Math.round(limits.cpus * 1e9),
      ShmSize: shares.shmBytes,
      Tmpfs: {
        "/workspace": `size=${shares.workspaceBytes},mode=0700,nosuid,nodev,${ownedBy(kind)}`,
        "/tmp": `size=${shares.tmpBytes},mode=1777,nosuid,nodev`
      }
    }
  }
}
