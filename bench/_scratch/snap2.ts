import { manyStreams } from "../phases.ts"
import { startTarget } from "../setup.ts"
import { full } from "../settings.ts"
const target = await startTarget({ ...full, openStreams: { ...full.openStreams, streams: 500 } })
const snap = (ms: number) => new Promise((r) => setTimeout(r, ms)).then(() => target.gateway.ask<{ file: string }>({ type: "heap-snapshot" })).then((r) => console.log(ms, r.file))
const all = Promise.all([snap(6000), snap(30000)])
console.log(JSON.stringify(await manyStreams(target)))
await all
await target.stop()
