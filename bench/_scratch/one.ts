import { Agent as UndiciAgent, request } from "undici"
import { startGateway } from "../../test/support/gateway.ts"
import { replyFor } from "../scenarios.ts"
const gw = await startGateway()
gw.upstream.respondWith(replyFor({ chunks: 1, chunkDelayMs: 0 }))
const { secret } = await gw.createKey()
const agent = new UndiciAgent()
const mode = process.argv[2] ?? "json"
const body = mode === "tools" ? JSON.stringify({ model: "test/m1", messages: [{ role: "user", content: "Hello, how are you today?" }], stream: false, allowedTools: ["bench_echo"] }) : JSON.stringify({ model: "test/m1", messages: [{ role: "user", content: "Hello, how are you today?" }], stream: mode === "stream" })
const N = Number(process.argv[3] ?? 5000)
const c0 = process.cpuUsage()
for (let i = 0; i < N; i++) {
  const r = await request(`${gw.url}/api/v1/chat`, { method: "POST", body, headers: { "content-type": "application/json", authorization: `Bearer ${secret}` }, dispatcher: agent })
  await r.body.text()
}
const c = process.cpuUsage(c0); console.log(((c.user + c.system) / 1000 / N).toFixed(3), "ms cpu/iter")
await gw.close(); await agent.close()
