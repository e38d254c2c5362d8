import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { request, Agent as UndiciAgent } from "undici"
import { startUpstream } from "../../test/support/upstream/index.ts"
import { replyFor } from "../scenarios.ts"
import { directBody } from "../scenarios.ts"

const upstream = await startUpstream({ recordRequests: false })
upstream.respondWith(replyFor({ chunks: 1, chunkDelayMs: 0 }))
const url = `${upstream.url}/chat/completions`
const body = directBody.text(true)

// measure CPU of N sequential iterations: but upstream is in-process, so subtract upstream's own cost:
const time = async (label: string, n: number, fn: () => Promise<unknown>) => {
  for (let i = 0; i < 300; i++) await fn()
  const c0 = process.cpuUsage(); const t0 = performance.now()
  for (let i = 0; i < n; i++) await fn()
  const c = process.cpuUsage(c0); const t = performance.now() - t0
  console.log(label.padEnd(30), ((c.user + c.system) / 1000 / n).toFixed(3), "ms cpu/iter", (t / n).toFixed(3), "ms wall")
}
const N = 2000
await time("fetch + text", N, async () => { const r = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }); await r.text() })
const agent = new UndiciAgent()
await time("undici.request + text", N, async () => { const r = await request(url, { method: "POST", body, headers: { "content-type": "application/json" }, dispatcher: agent }); await r.body.text() })
const provider = createOpenAICompatible({ name: "bench", baseURL: upstream.url, includeUsage: true, apiKey: "x" })
const model = provider.chatModel("text")
await time("model.doStream read all", N, async () => {
  const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "Hello" }] }] })
  const reader = stream.getReader(); for (;;) { const r = await reader.read(); if (r.done) break }
})
await upstream.close()
