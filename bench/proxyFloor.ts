import { startChild } from "./children.ts"
import { load } from "./load.ts"
import { directBody } from "./scenarios.ts"
import { full } from "./settings.ts"
import { median } from "./stats.ts"

/**
 * `node bench/proxyFloor.ts`: what one bare `node:http` proxy hop
 * (`bareProxyProcess.ts`) adds at concurrency 1 to a non-streamed chat asked
 * of the scripted upstream directly: the floor under parley's "c=1 added
 * p50" on this machine, measured as `npm run bench` measures that figure
 * (direct and through the hop in turn, medians over rounds).
 */
const log = (text: string) => process.stderr.write(`[proxy floor] ${text}\n`)
const upstream = await startChild("./upstreamProcess.ts", {})
const upstreamUrl = String(upstream.ready.url)
const proxy = await startChild("./bareProxyProcess.ts", { BENCH_UPSTREAM_URL: upstreamUrl })
const directUrl = `${upstreamUrl}/chat/completions`
const proxyUrl = `${String(proxy.ready.url)}/`
const body = directBody.text(false)
try {
  log("warming up")
  await load({ url: proxyUrl, body, connections: 10, durationSeconds: full.warmupSeconds })
  const direct: Array<number> = []
  const hop: Array<number> = []
  for (let round = 0; round < full.rounds; round++) {
    direct.push((await load({ url: directUrl, body, connections: 1, durationSeconds: full.seconds.c1 })).p50)
    hop.push((await load({ url: proxyUrl, body, connections: 1, durationSeconds: full.seconds.c1 })).p50)
  }
  const added = median(hop) - median(direct)
  console.log(
    `c=1 p50: direct ${median(direct).toFixed(3)} ms, through a bare node:http proxy ${
      median(hop).toFixed(3)
    } ms; added ${added.toFixed(3)} ms`
  )
} finally {
  await proxy.stop()
  await upstream.stop()
}
