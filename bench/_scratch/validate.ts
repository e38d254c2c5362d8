import { Agent as UndiciAgent, request } from "undici"
import { startGateway } from "../../test/support/gateway.ts"
const gw = await startGateway()
const { secret } = await gw.createKey()
const agent = new UndiciAgent()
const mode = process.argv[2] ?? "validate"
const body = JSON.stringify({ model: "test/m1", messages: [{ role: "user", content: "Hello, how are you today?" }], stream: false, validateOnly: true })
const N = Number(process.argv[3] ?? 20000)
const go = async () => {
  const r = mode === "validate"
    ? await request(`${gw.url}/api/v1/chat`, { method: "POST", body, headers: { "content-type": "application/json", authorization: `Bearer ${secret}` }, dispatcher: agent })
    : await request(`${gw.url}/api/v1/prompt-types`, { headers: { authorization: `Bearer ${secret}` }, dispatcher: agent })
  await r.body.text()
}
for (let i = 0; i < 2000; i++) await go()
const c0 = process.cpuUsage()
for (let i = 0; i < N; i++) await go()
const c = process.cpuUsage(c0); console.log(mode, ((c.user + c.system) / 1000 / N).toFixed(3), "ms cpu/iter")
await gw.close(); await agent.close()
