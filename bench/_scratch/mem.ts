import v8 from "node:v8"
import { Agent as UndiciAgent, request } from "undici"
const show = (label: string) => {
  const m = process.memoryUsage()
  const spaces = v8.getHeapSpaceStatistics().map((s) => `${s.space_name.replace("_space", "")}=${(s.space_size / 1048576).toFixed(0)}`).join(" ")
  console.log(label, "rss", (m.rss / 1048576).toFixed(0), "heapTotal", (m.heapTotal / 1048576).toFixed(0), "used", (m.heapUsed / 1048576).toFixed(0), "ext", (m.external / 1048576).toFixed(0), "ab", (m.arrayBuffers / 1048576).toFixed(0), spaces)
}
show("start")
const { startGateway } = await import("../../test/support/gateway.ts")
show("imported")
const gw = await startGateway()
show("started")
const { secret } = await gw.createKey()
const agent = new UndiciAgent()
const body = JSON.stringify({ model: "test/m1", messages: [{ role: "user", content: "Hello" }], stream: false })
await Promise.all(Array.from({ length: 50 }, async () => {
  for (let i = 0; i < 60; i++) { const r = await request(`${gw.url}/api/v1/chat`, { method: "POST", body, headers: { "content-type": "application/json", authorization: `Bearer ${secret}` }, dispatcher: agent }); await r.body.text() }
}))
show("after load")
;(globalThis as any).gc?.()
show("after gc")
await gw.close()
