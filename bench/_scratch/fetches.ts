import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import http from "node:http"
import { request, Agent as UndiciAgent } from "undici"
import { startUpstream } from "../../test/support/upstream/index.ts"
import { replyFor, directBody } from "../scenarios.ts"

const upstream = await startUpstream({ recordRequests: false })
upstream.respondWith(replyFor({ chunks: 1, chunkDelayMs: 0 }))
const url = `${upstream.url}/chat/completions`
const body = directBody.text(true)
const time = async (label: string, n: number, fn: () => Promise<unknown>) => {
  for (let i = 0; i < 500; i++) await fn()
  const c0 = process.cpuUsage()
  for (let i = 0; i < n; i++) await fn()
  const c = process.cpuUsage(c0)
  console.log(label.padEnd(34), ((c.user + c.system) / 1000 / n).toFixed(3), "ms cpu/iter")
}
const agent = new http.Agent({ keepAlive: true })
const nodeFetch = (input: any, init: any): Promise<Response> => new Promise((resolve, reject) => {
  const req = http.request(String(input), { method: init.method, headers: init.headers, agent, signal: init.signal }, (res) => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        res.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
        res.on("end", () => controller.close())
        res.on("error", (e) => controller.error(e))
      },
      cancel() { res.destroy() }
    })
    const headers = new Headers()
    for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v)
    resolve(new Response(stream, { status: res.statusCode ?? 500, headers }))
  })
  req.on("error", (cause) => reject(new TypeError("fetch failed", { cause })))
  req.end(init.body)
})
const ua = new UndiciAgent()
const undiciFetch = async (input: any, init: any): Promise<Response> => {
  const res = await request(String(input), { method: init.method, headers: init.headers, body: init.body, signal: init.signal, dispatcher: ua })
  const body = res.body
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      body.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
      body.on("end", () => controller.close())
      body.on("error", (e) => controller.error(e))
    },
    cancel() { body.destroy() }
  })
  const headers = new Headers()
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v)
  return new Response(stream, { status: res.statusCode, headers })
}
const N = 3000
await time("node:http req", N, () => nodeFetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }).then((r) => r.text()))
await time("undici req", N, () => undiciFetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }).then((r) => r.text()))
await time("global fetch", N, () => fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }).then((r) => r.text()))
for (const [name, f] of [["global fetch", undefined], ["node:http fetch", nodeFetch], ["undici fetch", undiciFetch]] as const) {
  const model = createOpenAICompatible({ name: "bench", baseURL: upstream.url, includeUsage: true, apiKey: "x", ...(f ? { fetch: f as any } : {}) }).chatModel("text")
  await time(`doStream ${name}`, N, async () => {
    const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "Hello" }] }] })
    const reader = stream.getReader(); for (;;) { const r = await reader.read(); if (r.done) break }
  })
}
await upstream.close()
