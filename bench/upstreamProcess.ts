import { startUpstream } from "../src/demo/upstream/server.ts"
import { replyFor, UPSTREAM_MODELS } from "./scenarios.ts"

/**
 * Child process: the scripted OpenAI-compatible upstream with zero delay
 * (the slow model aside), in a process of its own so the gateway's CPU and
 * memory are measured alone. Prints nothing; answers over IPC.
 */
const slow = {
  chunks: Number(process.env.BENCH_SLOW_CHUNKS ?? 20),
  chunkDelayMs: Number(process.env.BENCH_SLOW_DELAY_MS ?? 500)
}

const upstream = await startUpstream({ recordRequests: false, models: [...UPSTREAM_MODELS] })
upstream.respondWith(replyFor(slow))
process.send?.({ type: "ready", url: upstream.url })
process.on("message", (message: { type?: string }) => {
  if (message.type === "exit") void upstream.close().finally(() => process.exit(0))
})
process.on("disconnect", () => process.exit(0))
