import { memoryOf } from "./children.ts"
import { load } from "./load.ts"
import { manyStreams } from "./phases.ts"
import { directBody, doorOption, DOORS } from "./scenarios.ts"
import { full } from "./settings.ts"
import { startTarget } from "./setup.ts"

/**
 * `npm run bench:one -- <json|stream|tools|open> [seconds|streams] [--door=ui|route|chat-completions|responses|messages] [--cpu-prof=DIR] [--heap-snapshot] [--sources]`:
 * one scenario through one of the gateway's doors (`ui`, `POST /api/v1/chat`,
 * unless `--door` names another) at concurrency 50 (1 for the tool loop),
 * for measuring one fix before and after. Prints req/s, p50, the gateway's
 * CPU per request and its RSS after start and at its peak during the run
 * (`open`: the open-streams run of the full bench); with
 * `--cpu-prof` the gateway's profile lands in DIR, and `bench/topFunctions.ts`
 * summarizes it; `--sources` runs the gateway from its TypeScript rather than
 * the bundle, so that the profile names packages and files.
 */
const [scenario = "json", secondsArg = "10"] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"))
const profileDir = process.argv.find((arg) => arg.startsWith("--cpu-prof="))?.slice("--cpu-prof=".length)
const doorName = doorOption(process.argv)
const { body: doorBody } = DOORS[doorName]
const bodies: Record<string, string> = {
  json: doorBody.text(false),
  stream: doorBody.text(true),
  tools: doorBody.toolLoop()
}
const body = bodies[scenario]
if (body === undefined && scenario !== "open") {
  throw new Error(`unknown scenario ${scenario}: use json, stream, tools or open`)
}

const streams = body === undefined && process.argv.slice(2).filter((arg) => !arg.startsWith("--")).length > 1
  ? Number(secondsArg)
  : full.openStreams.streams
const target = await startTarget(
  { ...full, openStreams: { ...full.openStreams, streams } },
  { cpuProfileDir: profileDir, fromSources: process.argv.includes("--sources") }
)
const door = target.doors.find((door) => door.name === doorName)!
const MiB = 2 ** 20
const rssStart = memoryOf(target.gateway.pid).rss
try {
  if (body === undefined) {
    // `--heap-snapshot`: one snapshot of the gateway once every stream has been started.
    const o = target.settings.openStreams
    const snapshotAfter = (o.streams / o.batch) * o.batchIntervalMs + 3_000
    const snapshot = process.argv.includes("--heap-snapshot")
      ? new Promise((resolve) => setTimeout(resolve, snapshotAfter)).then(() =>
        target.gateway.ask<{ file: string }>({ type: "heap-snapshot" })
      )
      : undefined
    const open = await manyStreams(target, door)
    if (snapshot !== undefined) console.log(`heap snapshot: ${(await snapshot).file} (node bench/heapSummary.ts FILE)`)
    console.log(JSON.stringify({ ...open, rssStartMiB: rssStart / MiB, peakRssMiB: open.peakRss / MiB }))
  } else {
    await measure(body)
  }
} finally {
  await target.stop()
}

async function measure(body: string) {
  await load({ url: target.directUrl, body: directBody.text(true), connections: 10, durationSeconds: 1 })
  const connections = scenario === "tools" ? 1 : 50
  await load({ url: door.url, body, headers: door.headers, connections, durationSeconds: 2 })
  const before = await target.gateway.ask<{ cpuMicros: number }>({ type: "stats" })
  let peakRss = 0
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(target.gateway.pid).rss)), 100)
  const result = await load({
    url: door.url,
    body,
    headers: door.headers,
    connections,
    durationSeconds: Number(secondsArg)
  })
  clearInterval(sampler)
  const after = await target.gateway.ask<{ cpuMicros: number }>({ type: "stats" })
  const cpuMs = (after.cpuMicros - before.cpuMicros) / 1000 / result.requests
  console.log(
    `${scenario} through ${doorName} c=${connections}: ${result.rps.toFixed(0)} req/s, p50 ${
      result.p50.toFixed(3)
    } ms, ` +
      `CPU ${cpuMs.toFixed(3)} ms/request, ${result.requests} requests, ${result.failures} failures, ` +
      `RSS ${(rssStart / MiB).toFixed(0)} MiB after start, peak ${(peakRss / MiB).toFixed(0)} MiB`
  )
}
