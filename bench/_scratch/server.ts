import { createServer } from "node:http"
import { Agent as UndiciAgent, request } from "undici"
import { startGateway, UPSTREAM_API_KEY } from "../../test/support/gateway.ts"
import { replyFor } from "../scenarios.ts"

const gw = await startGateway()
gw.upstream.respondWith(replyFor({ chunks: 1, chunkDelayMs: 0 }))
const { secret } = await gw.createKey()
const auth = { authorization: `Bearer ${secret}` }
const plain = createServer((_req, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end('{"status":"ok"}') })
await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r))
const plainUrl = `http://127.0.0.1:${(plain.address() as any).port}/`
const agent = new UndiciAgent()
const time = async (label: string, n: number, fn: () => Promise<unknown>) => {
  for (let i = 0; i < 500; i++) await fn()
  const c0 = process.cpuUsage(); const t0 = performance.now()
  for (let i = 0; i < n; i++) await fn()
  const c = process.cpuUsage(c0); const t = performance.now() - t0
  console.log(label.padEnd(34), ((c.user + c.system) / 1000 / n).toFixed(3), "ms cpu/iter", (t / n).toFixed(3), "ms wall")
}
const get = (url: string, headers = {}) => async () => { const r = await request(url, { headers, dispatcher: agent }); await r.body.text() }
const post = (url: string, body: string, headers = {}) => async () => {
  const r = await request(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers }, dispatcher: agent })
  const t = await r.body.text(); if (r.statusCode !== 200) throw new Error(t)
}
const N = Number(process.argv[2] ?? 2000)
await time("plain node:http", N, get(plainUrl))
await time("GET /health", N, get(`${gw.url}/health`))
await time("GET /api/v1/prompt-types (auth)", N, get(`${gw.url}/api/v1/prompt-types`, auth))
await time("upstream direct stream", N, post(`${gw.upstream.url}/chat/completions`, JSON.stringify({ model: "text", messages: [{ role: "user", content: "Hello" }], stream: true, stream_options: { include_usage: true } }), { authorization: `Bearer ${UPSTREAM_API_KEY}` }))
const chat = (stream: boolean) => JSON.stringify({ model: "test/m1", messages: [{ role: "user", content: "Hello, how are you today?" }], stream })
await time("POST /chat validateOnly", N, post(`${gw.url}/api/v1/chat`, JSON.stringify({ ...JSON.parse(chat(false)), validateOnly: true }), auth))
await time("POST /chat json", N, post(`${gw.url}/api/v1/chat`, chat(false), auth))
await time("POST /chat stream", N, post(`${gw.url}/api/v1/chat`, chat(true), auth))
plain.close(); await gw.close(); await agent.close()
