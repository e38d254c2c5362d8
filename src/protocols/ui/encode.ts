import type { UIMessageChunk } from "ai"
import type { RunEvent } from "../../agent/RunEvent.ts"
import { uiChunk } from "./chunks.ts"

/**
 * Server-sent events in the AI SDK UI message stream protocol (docs/DESIGN.md §3.1).
 * Tool chunks are named `tool` (the spec's tool events); AI SDK clients
 * ignore event names, so `useChat` and `readUIMessageStream` read it as is.
 */
export const sseHeaders: Readonly<Record<string, string>> = {
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
  "x-vercel-ai-ui-message-stream": "v1"
}

export const encodeChunk = (chunk: UIMessageChunk): string =>
  chunk.type.startsWith("tool-")
    ? `event: tool\ndata: ${JSON.stringify(chunk)}\n\n`
    : `data: ${JSON.stringify(chunk)}\n\n`

/** A run event on the wire; a text delta, most of a stream, is its own chunk and goes straight to JSON. */
export const encodeEvent = (event: RunEvent): string =>
  event.type === "text-delta" ? `data: ${JSON.stringify(event)}\n\n` : encodeChunk(uiChunk(event))

export const DONE = "data: [DONE]\n\n"

// What the run used is not known here: no usage field is reported (docs/DESIGN.md §3.17).
const FAILED_FINISH = encodeChunk({
  type: "finish",
  finishReason: "error",
  messageMetadata: { finished: false, finishReason: "error", usage: {} }
})

/**
 * What ends a stream whose run broke after it began (docs/DESIGN.md §3.3;
 * the agent ends the stream itself when the provider fails): an error chunk
 * and a finish chunk, so no client is left hanging.
 */
export const encodeFailure = (errorText: string): string =>
  encodeChunk({ type: "error", errorText }) + FAILED_FINISH + DONE
