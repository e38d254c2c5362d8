import type { TaskMeta } from "vitest"
import { SIZE } from "./size.ts"

/** What a reliability test reports beside pass or fail: its size and its figures (p99, RSS growth …). */
export interface ReliabilityFigures {
  readonly size: string
  readonly figures: Record<string, string | number>
}

declare module "vitest" {
  interface TaskMeta {
    reliability?: ReliabilityFigures
  }
}

/**
 * Attaches a test's size and figures to its task, where the summary reporter
 * reads them. Call it before the assertions, so a failing test still shows
 * what it measured; later calls add figures.
 */
export const record = (
  task: { readonly meta: TaskMeta },
  size: string,
  figures: Record<string, string | number> = {}
): void => {
  task.meta.reliability = {
    size: `${SIZE}: ${size}`,
    figures: { ...task.meta.reliability?.figures, ...figures }
  }
}

/** Milliseconds as a short figure. */
export const ms = (value: number): string => `${Math.round(value)} ms`

/** Bytes as MiB with one decimal. */
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

/** A percentile of sorted numbers (nearest rank). */
export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
