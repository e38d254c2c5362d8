import { cpus, loadavg, totalmem } from "node:os"
import { badWorkers, parseWorkers } from "../src/app/workers.ts"
import { memoryOf } from "./children.ts"
import { manyStreams, nonStreaming, streaming, type Target, toolLoop, warmUp } from "./phases.ts"
import {
  type DoorRatio,
  type DoorRow,
  doorSummary,
  doorTable,
  rounded,
  ROUTE_TOLERANCE,
  type Row,
  table,
  verdict
} from "./report.ts"
import { sandboxFigures } from "./sandboxes.ts"
import { DOORS } from "./scenarios.ts"
import { full, smoke } from "./settings.ts"
import { startTarget } from "./setup.ts"
import { compareWorkers } from "./workers.ts"

/**
 * `npm run bench` (`-- --smoke` for the CI run): starts the scripted upstream
 * and the gateway as child processes on a fresh SQLite file, warms up, runs
 * every figure of issue 6 direct and through parley in alternation, prints a
 * table and one JSON line. The non-streaming and streaming figures are taken
 * through each of the gateway's doors, `ui` (`POST /api/v1/chat`, the main
 * table), `chat-completions` (`POST /v1/chat/completions`), `responses`
 * (`POST /v1/responses`) and `messages` (`POST /v1/messages`), and `route`
 * (`POST /api/v1/chat` to a route of one target, issue 22), interleaved in
 * every round and printed side by side with their ratio (issue 20);
 * `--baseline=REF` adds the ui door of REF's gateway to that A/B
 * (`bench/setup.ts`). `--cpu-prof=DIR` writes the gateway's CPU profile
 * (`--sources`: of the gateway run from its TypeScript, so it names files);
 * `--rounds=N` takes every alternated figure over N rounds instead of 3
 * (smoke: 1), for a busy machine; `--only=c1` runs the concurrency-1 figures
 * alone (~40 s), for measuring a latency fix before and after; `--workers
 * auto` (or a count) compares c=50 through one worker and through that many
 * (`bench/workers.ts`), alone; `--only=sandboxes` the sandbox figures alone
 * (`bench/sandboxes.ts`: a command through the docker backend beside a bare
 * exec, creation times, the local backend's command), which the full run
 * ends with. Never fails on timing: only on a broken setup.
 */
const roundsArg = process.argv.find((arg) => arg.startsWith("--rounds="))?.slice("--rounds=".length)
const baseSettings = process.argv.includes("--smoke") ? smoke : full
const settings = roundsArg === undefined ? baseSettings : { ...baseSettings, rounds: Number(roundsArg) }
if (!(Number.isInteger(settings.rounds) && settings.rounds > 0)) throw new Error(`--rounds=${roundsArg}: a count`)
const onlyC1 = process.argv.includes("--only=c1")
const workersAt = process.argv.findIndex((arg) => arg === "--workers" || arg.startsWith("--workers="))
const workersArg = workersAt === -1
  ? undefined
  : process.argv[workersAt]!.includes("=")
  ? process.argv[workersAt]!.slice("--workers=".length)
  : process.argv[workersAt + 1] ?? ""
const profileDir = process.argv.find((arg) => arg.startsWith("--cpu-prof="))?.slice("--cpu-prof=".length)
const baseline = process.argv.find((arg) => arg.startsWith("--baseline="))?.slice("--baseline=".length)
const MiB = 1024 * 1024
const log = (text: string) => process.stderr.write(`[bench] ${text}\n`)
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const loadStart = loadavg()
const loadAverages = (end: ReadonlyArray<number>) =>
  `load average: start ${loadStart.map((n) => n.toFixed(2)).join(" ")}, end ${end.map((n) => n.toFixed(2)).join(" ")}`

const c1Rows = (c1: Awaited<ReturnType<typeof nonStreaming>>): Array<Row> => [
  { figure: "c=1 req/s", direct: c1.direct.rps, parley: c1.parley.rps, unit: "req/s" },
  { figure: "c=1 p50", direct: c1.direct.p50, parley: c1.parley.p50, unit: "ms" },
  { figure: "c=1 p90", direct: c1.direct.p90, parley: c1.parley.p90, unit: "ms" },
  { figure: "c=1 p99", direct: c1.direct.p99, parley: c1.parley.p99, unit: "ms" },
  { figure: "c=1 added p50", parley: c1.parley.p50 - c1.direct.p50, unit: "ms", target: { limit: 0.3 } },
  { figure: "CPU per request, non-streaming c=1", parley: c1.cpuMsPerRequest, unit: "ms" },
  { figure: "c=1 gateway main thread per request: on a CPU", parley: c1.mainThread.onCpuMs, unit: "ms" },
  { figure: "c=1 gateway main thread per request: waiting for a CPU", parley: c1.mainThread.runQueueMs, unit: "ms" },
  { figure: "c=1 gateway main thread per request: idle (I/O wait)", parley: c1.mainThread.idleMs, unit: "ms" }
]

type NonStreaming = Awaited<ReturnType<typeof nonStreaming>>
type Streaming = Awaited<ReturnType<typeof streaming>>

/** A phase's figures through `door`: the first door's are the phase's own, the others' under `doors`. */
const through = <F>(result: F & { readonly doors: Readonly<Record<string, F>> }, target: Target, door: string): F =>
  door === target.doors[0]!.name ? result : result.doors[door]!

const doorRow = <F>(
  target: Target,
  result: F & { readonly doors: Readonly<Record<string, F>> },
  figure: string,
  unit: string,
  pick: (figures: F) => number,
  higherIsBetter = false
): DoorRow => ({
  figure,
  unit,
  values: Object.fromEntries(target.doors.map((door) => [door.name, pick(through(result, target, door.name))])),
  higherIsBetter
})

const c1DoorRows = (target: Target, c1: NonStreaming): Array<DoorRow> => [
  doorRow(target, c1, "c=1 added p50", "ms", (door) => door.parley.p50 - c1.direct.p50),
  doorRow(target, c1, "c=1 p50", "ms", (door) => door.parley.p50),
  doorRow(target, c1, "CPU per request, non-streaming c=1", "ms", (door) => door.cpuMsPerRequest),
  doorRow(target, c1, "c=1 gateway main thread on a CPU per request", "ms", (door) => door.mainThread.onCpuMs)
]

const laterDoorRows = (target: Target, c50: NonStreaming, stream: Streaming): Array<DoorRow> => [
  doorRow(target, c50, "c=50 req/s", "req/s", (door) => door.parley.rps, true),
  doorRow(target, c50, "c=50 p50", "ms", (door) => door.parley.p50),
  doorRow(target, c50, "CPU per request, non-streaming c=50", "ms", (door) => door.cpuMsPerRequest),
  doorRow(target, stream, "stream added TTFB p50", "ms", (door) => door.parley.ttfbP50 - stream.direct.ttfbP50),
  doorRow(target, stream, "stream added [DONE] p50", "ms", (door) => door.parley.doneP50 - stream.direct.doneP50),
  doorRow(target, stream, `stream req/s, c=${settings.streamConcurrency}`, "req/s", (door) => door.parley.rps, true),
  doorRow(target, stream, "CPU per streamed 20-chunk answer", "ms", (door) => door.cpuMsPerRequest)
]

/** Each other door against ui; with a baseline (`ui@REF`, after this tree's doors), this tree's ui against it. */
const doorRatios = (target: Target): Array<DoorRatio> => [
  ...Object.keys(DOORS).filter((name) => name !== "ui").map((name) => ({
    of: name,
    to: "ui",
    ...(name === "route" ? { tolerance: ROUTE_TOLERANCE } : {})
  })),
  ...target.doors.slice(Object.keys(DOORS).length).map((door) => ({ of: "ui", to: door.name }))
]

/** The door A/B: a table for the terminal, a summary for the JSON line. */
const doorReport = (target: Target, rows: ReadonlyArray<DoorRow>) => {
  const ratios = doorRatios(target)
  const doors = target.doors.map((door) => door.name)
  return { text: doorTable(rows, doors, ratios), json: { names: doors, figures: doorSummary(rows, ratios) } }
}

/** Phases in which a door answered nothing: the run is broken, not slow. */
const unanswered = (target: Target, counts: Record<string, (door: string) => number>) =>
  Object.entries(counts).flatMap(([phase, count]) =>
    target.doors.filter((door) => !(count(door.name) > 0)).map((door) => `${phase} (${door.name})`)
  )

/** `--only=c1`: warm-up, then the concurrency-1 run alone. */
const concurrencyOne = async (target: Target) => {
  log(`${settings.name} run, c=1 only; warming up`)
  await warmUp(target)
  await settle(1_000)
  log("non-streaming, concurrency 1")
  const c1 = await nonStreaming(target, 1, settings.seconds.c1)
  const broken = unanswered(target, { c1: (door) => through(c1, target, door).parley.requests })
  if (broken.length > 0) process.exitCode = 1
  const doors = doorReport(target, c1DoorRows(target, c1))
  console.log(table(c1Rows(c1)))
  console.log(`\n${doors.text}\n`)
  if (broken.length > 0) console.log(`BROKEN: parley answered nothing in ${broken.join(", ")}`)
  const failures = c1.direct.failures +
    target.doors.reduce((n, door) => n + through(c1, target, door.name).parley.failures, 0)
  console.log(`${loadAverages(loadavg())}; failed requests: ${failures}`)
  console.log(
    JSON.stringify(
      rounded({ bench: "parley", settings: `${settings.name}, c=1 only`, nonStreaming: { c1 }, doors: doors.json })
    )
  )
}

const everything = async (target: Target) => {
  const { gateway } = target
  await settle(500)
  const rssStart = memoryOf(gateway.pid).rss
  log(`${settings.name} run; warming up`)
  await warmUp(target)
  await settle(1_000)
  const rssIdle = memoryOf(gateway.pid).rss
  log("non-streaming, concurrency 1")
  const c1 = await nonStreaming(target, 1, settings.seconds.c1)
  log("non-streaming, concurrency 50")
  const c50 = await nonStreaming(target, 50, settings.seconds.c50)
  log("streaming")
  const stream = await streaming(target)
  log("tool loop")
  const loop = await toolLoop(target)
  log(`${settings.openStreams.streams} open streams`)
  const open = await manyStreams(target)
  log(`${settings.openStreams.resumable} resumable streams`)
  const kept = await manyStreams(target, undefined, settings.openStreams.resumable)
  log("sandboxes")
  const sandboxes = await sandboxFigures(settings, log)
  const loadEnd = loadavg()

  const rows: Array<Row> = [
    ...c1Rows(c1),
    {
      figure: "c=50 req/s",
      direct: c50.direct.rps,
      parley: c50.parley.rps,
      unit: "req/s",
      target: { limit: 3000, atLeast: true }
    },
    { figure: "c=50 p50", direct: c50.direct.p50, parley: c50.parley.p50, unit: "ms" },
    { figure: "c=50 p90", direct: c50.direct.p90, parley: c50.parley.p90, unit: "ms" },
    { figure: "c=50 p99", direct: c50.direct.p99, parley: c50.parley.p99, unit: "ms" },
    { figure: "c=50 direct/parley throughput", parley: c50.direct.rps / c50.parley.rps, unit: "×" },
    { figure: "CPU per request, non-streaming c=50", parley: c50.cpuMsPerRequest, unit: "ms" },
    { figure: "stream TTFB p50", direct: stream.direct.ttfbP50, parley: stream.parley.ttfbP50, unit: "ms" },
    { figure: "stream TTFB p99", direct: stream.direct.ttfbP99, parley: stream.parley.ttfbP99, unit: "ms" },
    {
      figure: "stream added TTFB p50",
      parley: stream.parley.ttfbP50 - stream.direct.ttfbP50,
      unit: "ms",
      target: { limit: 1 }
    },
    { figure: "stream [DONE] p50", direct: stream.direct.doneP50, parley: stream.parley.doneP50, unit: "ms" },
    { figure: "stream [DONE] p99", direct: stream.direct.doneP99, parley: stream.parley.doneP99, unit: "ms" },
    {
      figure: `stream req/s, c=${settings.streamConcurrency}`,
      direct: stream.direct.rps,
      parley: stream.parley.rps,
      unit: "req/s"
    },
    { figure: "CPU per streamed 20-chunk answer", parley: stream.cpuMsPerRequest, unit: "ms", target: { limit: 0.4 } },
    { figure: "tool loop p50 (3 upstream calls)", direct: 3 * loop.upstreamCallP50, parley: loop.loopP50, unit: "ms" },
    { figure: "tool loop added time per step", parley: loop.addedMsPerStep, unit: "ms", target: { limit: 0.5 } },
    { figure: "tool loop CPU per step", parley: loop.cpuMsPerStep, unit: "ms" },
    { figure: "RSS idle, started", parley: rssStart / MiB, unit: "MiB", target: { limit: 80 } },
    { figure: "RSS idle, after warm-up", parley: rssIdle / MiB, unit: "MiB" },
    { figure: "RSS under c=50 (peak)", parley: c50.peakRss / MiB, unit: "MiB", target: { limit: 150 } },
    {
      figure: `${open.streams} open streams: peak RSS`,
      parley: open.peakRss / MiB,
      unit: "MiB",
      target: { limit: 1024 }
    },
    { figure: `${open.streams} open streams: lag p99`, parley: open.lagP99, unit: "ms", target: { limit: 50 } },
    {
      figure: `${open.streams} open streams: completed`,
      parley: open.completed,
      unit: "streams",
      target: { limit: open.streams, atLeast: true }
    },
    { figure: `${kept.streams} resumable streams: peak RSS`, parley: kept.peakRss / MiB, unit: "MiB" },
    { figure: `${kept.streams} resumable streams: lag p99`, parley: kept.lagP99, unit: "ms" },
    {
      figure: `${kept.streams} resumable streams: completed`,
      parley: kept.completed,
      unit: "streams",
      target: { limit: kept.streams, atLeast: true }
    }
  ]
  const failures = c1.direct.failures + c50.direct.failures + stream.direct.failures + loop.failures +
    target.doors.reduce((n, { name }) => {
      const s = through(stream, target, name)
      return n + through(c1, target, name).parley.failures + through(c50, target, name).parley.failures +
        s.parley.failures + s.loadFailures
    }, 0)

  // Slow is reported, broken is not: a phase in which parley answered nothing (through any door) fails the run (and CI).
  const broken = [
    ...unanswered(target, {
      c1: (door) => through(c1, target, door).parley.requests,
      c50: (door) => through(c50, target, door).parley.requests,
      stream: (door) => through(stream, target, door).parley.rps
    }),
    ...Object.entries({ toolLoop: loop.loopP50, open: open.completed, resumable: kept.completed })
      .filter(([, value]) => !(value > 0))
      .map(([name]) => name)
  ]
  if (broken.length > 0) process.exitCode = 1
  const doors = doorReport(target, [...c1DoorRows(target, c1), ...laterDoorRows(target, c50, stream)])

  console.log(table(rows))
  console.log(`\n${doors.text}\n`)
  console.log(`${table(sandboxes)}\n`)
  console.log(
    `open streams: ${open.connections} client connections × ${open.pipelining} pipelined; ` +
      `peak upstream connections ${open.peakUpstreamConnections}; ${open.seconds.toFixed(1)} s; lag max ${
        open.lagMax.toFixed(1)
      } ms`
  )
  if (broken.length > 0) console.log(`BROKEN: parley answered nothing in ${broken.join(", ")}`)
  console.log(`${loadAverages(loadEnd)}; failed requests: ${failures}`)
  console.log(JSON.stringify(rounded({
    bench: "parley",
    settings: settings.name,
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, memoryGiB: totalmem() / 1024 ** 3, node: process.version },
    loadAverage: { start: loadStart, end: loadEnd },
    failures,
    nonStreaming: { c1, c50 },
    streaming: stream,
    toolLoop: loop,
    openStreams: open,
    resumableStreams: kept,
    doors: doors.json,
    sandboxes: sandboxJson(sandboxes),
    rss: {
      startMiB: rssStart / MiB,
      idleMiB: rssIdle / MiB,
      c50PeakMiB: c50.peakRss / MiB,
      openStreamsPeakMiB: open.peakRss / MiB,
      resumableStreamsPeakMiB: kept.peakRss / MiB
    },
    targets: Object.fromEntries(
      [...rows, ...sandboxes].filter((row) => row.target !== undefined).map((row) => [row.figure, verdict(row)])
    )
  })))
}

const sandboxJson = (rows: ReadonlyArray<Row>) =>
  Object.fromEntries(rows.map((row) => [row.figure, row.direct === undefined ? row.parley : row]))

/** `--only=sandboxes`: the sandbox figures alone, no gateway. */
const sandboxesOnly = async () => {
  log(`${settings.name} run, sandboxes only`)
  const rows = await sandboxFigures(settings, log)
  console.log(table(rows))
  console.log(loadAverages(loadavg()))
  console.log(
    JSON.stringify(rounded({ bench: "parley", settings: `${settings.name}, sandboxes`, sandboxes: sandboxJson(rows) }))
  )
}

/** `--workers`: c=50 through one worker, then through `count`. */
const workers = async (text: string) => {
  const count = parseWorkers(text)
  if (count === undefined) throw new Error(badWorkers(text))
  log(`${settings.name} run: c=50 through --workers 1 and --workers ${count}`)
  const result = await compareWorkers(settings, count)
  console.log(table(result.rows.flatMap((row): Array<Row> => [
    { figure: `c=50 req/s, --workers ${row.workers}`, parley: row.rps, unit: "req/s" },
    { figure: `c=50 p50, --workers ${row.workers}`, parley: row.p50, unit: "ms" },
    { figure: `c=50 p99, --workers ${row.workers}`, parley: row.p99, unit: "ms" },
    { figure: `RSS after warm-up, all processes, --workers ${row.workers}`, parley: row.rssMiB, unit: "MiB" }
  ])))
  const failures = result.rows.reduce((n, row) => n + row.failures, 0)
  if (result.rows.some((row) => !(row.rps > 0))) process.exitCode = 1
  console.log(`${loadAverages(loadavg())}; failed requests: ${failures}`)
  console.log(JSON.stringify(rounded({ bench: "parley", settings: `${settings.name}, workers`, ...result })))
}

if (workersArg !== undefined) {
  await workers(workersArg)
} else if (process.argv.includes("--only=sandboxes")) {
  await sandboxesOnly()
} else {
  const target = await startTarget(settings, {
    cpuProfileDir: profileDir,
    fromSources: process.argv.includes("--sources"),
    baseline
  })
  try {
    await (onlyC1 ? concurrencyOne(target) : everything(target))
  } finally {
    await target.stop()
  }
}
