import { Schema } from "effect"
import { randomBytes } from "node:crypto"

/**
 * A sandbox as its provider records it. `ownerKeyId` is the API key that
 * created it; `null` means the operator created it for the whole account
 * (`parley sandbox create` without `--key`), so every key may use it.
 */
export interface SandboxInfo {
  readonly id: string
  readonly ownerKeyId: string | null
  /** The account of the key that created it (docs/DESIGN.md §6); absent on the operator's and on older records. */
  readonly ownerAccountId?: string | undefined
  readonly desktop: boolean
  readonly network: boolean
  readonly createdAt: Date
  /**
   * The host user its jails run as when the gateway is root: one per
   * sandbox, never shared (the kernel counts the process limit per user),
   * allocated by the store and free again once the sandbox is removed.
   */
  readonly uid: number
  /**
   * The instance that created it and holds its workspace on its own disk
   * (`PARLEY_INSTANCE_ID`); every instance on the database sees the record,
   * only this one may use the sandbox (docs/DESIGN.md §8).
   */
  readonly instance: string
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
 * The sandbox lives on another instance, whose disk holds its workspace; a
 * balancer can route by sandbox to it. `remedy` replaces that advice where
 * the caller cannot be routed so (the admin API and its console).
 */
export class SandboxElsewhere extends Schema.TaggedError<SandboxElsewhere>()("SandboxElsewhere", {
  sandboxId: Schema.String,
  instance: Schema.String,
  remedy: Schema.optional(Schema.String)
}) {
  override get message() {
    return `Sandbox ${this.sandboxId} lives on instance ${this.instance}: ` +
      (this.remedy ?? "send requests for it there (a balancer routes them by the X-Parley-Sandbox header)")
  }
}

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
