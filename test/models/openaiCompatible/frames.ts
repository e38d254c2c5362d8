import { sse, SSE_DONE } from "../../../src/demo/upstream/wire.ts"

/** Hand-made stream chunks for raw replies: what the scripted answers never send. */
const meta = { id: "chatcmpl-raw", object: "chat.completion.chunk", created: 1_700_000_000, model: "demo" }

export const chunk = (delta: object | null, finishReason: string | null = null, extra: object = {}) =>
  sse({ ...meta, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })

export const usageChunk = (usage: object) => sse({ ...meta, choices: [], usage })

export const stop = chunk({}, "stop")

export { sse, SSE_DONE }
