import { manyStreams } from "../phases.ts"
import { startTarget } from "../setup.ts"
import { full } from "../settings.ts"
const streams = Number(process.argv[2] ?? 2000)
const target = await startTarget({ ...full, openStreams: { ...full.openStreams, streams } })
const mb = (n: number) => (n / 1048576).toFixed(0)
const timer = setInterval(async () => {
  const s = await target.gateway.ask<any>({ type: "stats" })
  const m = s.memory
  console.log(`rss ${mb(m.rss)} heapTotal ${mb(m.heapTotal)} used ${mb(m.heapUsed)} ext ${mb(m.external)} ab ${mb(m.arrayBuffers)} lagMax ${s.lag.max.toFixed(0)}`)
}, 2000)
const r = await manyStreams(target)
clearInterval(timer)
console.log(JSON.stringify(r))
await target.stop()
