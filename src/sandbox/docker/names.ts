import type { EngineKind } from "./engine.ts"

/** The labels of every container parley makes (docs/DESIGN.md §3.13); it finds its containers by them only. */
export const LABEL = {
  sandbox: "parley.sandbox",
  owner: "parley.owner",
  /** The database whose records these are (`SandboxRecords.deployment`), so gateways sharing an engine keep apart. */
  deployment: "parley.deployment"
} as const

/** Docker Engine's bridge network of sandboxes made with `"network": true`; every other sandbox has none (`lo` only). */
export const SANDBOX_NETWORK = "parley-sandboxes"

/**
 * The network of a sandbox with `"network": true`, made on first need and
 * labelled as its containers are. Docker Engine: one bridge for every
 * sandbox with inter-container traffic off (`enable_icc`; a network per
 * sandbox would use up its address pools after about 30); Podman, which has
 * no such switch: a bridge per sandbox, which it isolates from its other
 * networks. docs/sandboxes.md says what each reaches, measured.
 */
export const networkOf = (kind: EngineKind, id: string): string => kind === "docker" ? SANDBOX_NETWORK : `parley-${id}`
