import type { ServerResponse } from "node:http"

/** What was being written when a write of an answer threw (docs/DESIGN.md §3.25): its head, a chunk, its end. */
export type WriteStage = "head" | "chunk" | "end"

/**
 * Told when writing an answer threw, instead of the throw going on: from a
 * timer or an immediate it would end the process (Node's `ERR_INVALID_CHAR`
 * for a header did). The route ends that answer, and that answer only.
 */
export type WriteFailed = (error: unknown, stage: WriteStage) => void

/** The stage a throw of a whole-answer write (`writeJson`) was at: its end once the head went out. */
export const stageOf = (res: ServerResponse): WriteStage => res.headersSent ? "end" : "head"
