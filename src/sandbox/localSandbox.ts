import type { SandboxInfo } from "./Sandbox.ts"

/** A `local` sandbox: its record and what the local backend keeps beside it. */
export interface LocalSandbox extends SandboxInfo {
  /**
   * The host user its jails run as when the gateway is root: one per
   * sandbox, never shared (the kernel counts the process limit per user),
   * allocated by the store and free again once the sandbox is removed.
   */
  readonly uid: number
}
