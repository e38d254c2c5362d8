import { startTarget } from "../setup.ts"
import { full } from "../settings.ts"
import { load } from "../load.ts"
import { parleyBody } from "../scenarios.ts"
const target = await startTarget(full)
await load({ url: target.chatUrl, body: parleyBody.text(true), headers: target.auth, connections: 10, durationSeconds: 2 })
const r = await target.gateway.ask<{ file: string }>({ type: "heap-snapshot" })
console.log(r.file)
await target.stop()
