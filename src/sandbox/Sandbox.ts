import { Schema } from "effect"
import { randomBytes } from "node:crypto"

/** Where sandboxes live (`PARLEY_SANDBOX_BACKEND`, docs/DESIGN.md §3.13): one backend per gateway. */
export type SandboxBackendName = "local" | "docker"

/**
 * A sandbox's record, the same for every backend (what one backend keeps
 * beside it, a host uid or a container, is its own). `ownerKeyId` is the API
 * key that created it; `null` means the operator created it for the whole
 * account (`parley sandbox create` without `--key`), so every key may use it.
 */
export interface SandboxInfo {
  readonly id: string
  readonly ownerKeyId: string | null
  /** The account of the key that created it (docs/DESIGN.md §6); absent on the operator's and on older records. */
  readonly ownerAccountId?: string | undefined
  readonly desktop: boolean
  readonly network: boolean
  readonly backend: SandboxBackendName
  /**
   * The one instance that can use it (`PARLEY_INSTANCE_ID`): a `local`
   * sandbox's workspace is on the disk of the instance that made it; every
   * instance on the database sees the record (docs/DESIGN.md §8). null: every
   * instance of its backend reaches it (`docker`, on the engine they share).
   */
  readonly instance: string | null
  readonly createdAt: Date
  /** When a request last used it; one unused for `PARLEY_SANDBOX_IDLE` is reclaimed. */
  readonly usedAt: Date
}

export interface CreateSandbox {
  readonly ownerKeyId: string | null
  readonly ownerAccountId?: string | undefined
  readonly desktop: boolean
  readonly network: boolean
}

/** A finished command. `exitCode` is null when parley stopped it (timeout, cancel, output limit). */
export interface CommandResult {
  readonly stdout: string
  readonly stderr: string
  readonly exitCode: number | null
  /** Some output was dropped: only the head and tail of each stream are kept. */
  readonly truncated: boolean
  readonly timedOut: boolean
}

export interface RunCommand {
  readonly command: string
  /** Defaults to the provider's command timeout; capped at its maximum. */
  readonly timeoutMs?: number | undefined
  readonly stdin?: Uint8Array | undefined
}

export interface DisplaySize {
  readonly width: number
  readonly height: number
}

/**
 * No such sandbox (or one the caller may not see). `remedy` replaces the
 * advice written for an API key (where its sandboxes are listed) where the
 * caller is another (the admin API and its console).
 */
export class SandboxNotFound extends Schema.TaggedError<SandboxNotFound>()("SandboxNotFound", {
  id: Schema.String,
  remedy: Schema.optional(Schema.String)
}) {
  override get message() {
    return `Unknown sandbox "${this.id}"`
  }
}

/**
 * The sandbox is out of this gateway's reach: a `local` one lives on another
 * instance, whose disk holds its workspace (a balancer can route by sandbox
 * to it), or it is another backend's than this gateway's. `remedy` replaces
 * the routing advice where the caller cannot be routed so (the admin API and
 * its console).
 */
export class SandboxElsewhere extends Schema.TaggedError<SandboxElsewhere>()("SandboxElsewhere", {
  sandboxId: Schema.String,
  backend: Schema.Literals(["local", "docker"]),
  /** The instance holding it; null for a sandbox every instance of its backend reaches. */
  instance: Schema.NullOr(Schema.String),
  remedy: Schema.optional(Schema.String)
}) {
  override get message() {
    const where = this.instance === null
      ? `Sandbox ${this.sandboxId} is a ${this.backend} sandbox, which this gateway does not run`
      : `Sandbox ${this.sandboxId} lives on instance ${this.instance}`
    const advice = this.instance === null
      ? `send requests for it to a gateway with PARLEY_SANDBOX_BACKEND=${this.backend}`
      : "send requests for it there (a balancer routes them by the X-Parley-Sandbox header)"
    return `${where}: ${this.remedy ?? advice}`
  }
}

/** Why `info` is out of reach of a gateway running `backend` as `instance`, or undefined when it is in reach. */
export const outOfReach = (
  info: SandboxInfo,
  backend: SandboxBackendName,
  instance: string
): SandboxElsewhere | undefined =>
  info.backend === backend && (info.instance === null || info.instance === instance)
    ? undefined
    : new SandboxElsewhere({ sandboxId: info.id, backend: info.backend, instance: info.instance })

/** The host cannot run sandboxes (a missing package, no user namespaces); the message says what to install. */
export class SandboxUnavailable extends Schema.TaggedError<SandboxUnavailable>()("SandboxUnavailable", {
  message: Schema.String
}) {}

/** A desktop action the sandbox cannot perform as asked (no desktop, a coordinate off the display). */
export class InvalidDesktopAction extends Schema.TaggedError<InvalidDesktopAction>()("InvalidDesktopAction", {
  message: Schema.String
}) {}

const idPattern = /^sbx_[0-9a-f]{24}$/

export const newSandboxId = (): string => `sbx_${randomBytes(12).toString("hex")}`

/** Ids reach file paths, so anything but the generated shape is unknown before any lookup. */
export const isSandboxId = (id: string): boolean => idPattern.test(id)

/** A file operation the sandbox refused (a directory, no permission); the message is the jail's own. */
export class SandboxFileError extends Schema.TaggedError<SandboxFileError>()("SandboxFileError", {
  message: Schema.String
}) {}
