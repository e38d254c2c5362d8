import { Context, Effect, Layer, ManagedRuntime, Schema } from "effect"
import { HttpServer } from "effect/http"
import { openSync, readFileSync, writeFileSync, writeSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { monitorEventLoopDelay, performance } from "node:perf_hooks"
import { writeHeapSnapshot } from "node:v8"
import { makeGateway } from "../src/app/gateway.ts"
import { ApiKeys } from "../src/auth/ApiKeys.ts"
import { AppConfig } from "../src/config/AppConfig.ts"
import { defineTool } from "../src/tools/defineTool.ts"
import { ToolRegistry } from "../src/tools/ToolRegistry.ts"
import { TOOL_NAME } from "./scenarios.ts"

/**
 * Child process: the real gateway as `npm start` builds it (config file from
 * PARLEY_CONFIG, a SQLite file from DATABASE_URL) plus one trivial tool, on an
 * ephemeral loopback port. It creates one key, reports it over IPC and answers
 * `stats` requests with its CPU time, memory and event-loop delay, measured
 * inside this process (and `heap-snapshot` requests with a snapshot's path,
 * `heap-sample-*` ones with a sampled allocation profile's).
 * The main thread's scheduler times tell a request that waits for a CPU from
 * one that waits for I/O: at concurrency 1 the loop is on a CPU, runnable
 * (the run queue) or idle (epoll), and only the last is an idle wait.
 * It writes its log lines as `npm start` does (JSON, `info`: a line per
 * request), to /dev/null instead of stdout, so the bench pays what a service
 * does; warnings and errors go to stderr as well. `BENCH_GATEWAY_LOGS=off`:
 * warnings and errors only, for measuring what the request lines cost.
 */
const echo = defineTool({
  name: TOOL_NAME,
  description: "Echoes its input",
  category: "bench",
  inputSchema: Schema.Struct({ text: Schema.String }),
  promptTypes: [],
  execute: (input) => Effect.succeed({ echoed: input.text })
})

// The configuration `npm start` reads, but on any free loopback port.
const config = Layer.effect(
  AppConfig,
  Effect.map(Effect.service(AppConfig), (read) => AppConfig.of({ ...read, host: "127.0.0.1", port: 0 }))
).pipe(Layer.provide(AppConfig.layer))

const devNull = openSync("/dev/null", "w")
// Written as process.stdout writes to a file: one synchronous write per line.
const logSink = (line: string) => {
  writeSync(devNull, `${line}\n`)
  // `{"time":"<24 characters>","level":"info"…`
  if (!line.startsWith(`"level":"info"`, 35)) process.stderr.write(`${line}\n`)
}
const app = makeGateway({
  config,
  tools: Layer.succeed(ToolRegistry, ToolRegistry.make([echo])),
  quiet: true,
  ...(process.env.BENCH_GATEWAY_LOGS === "off" ? {} : { observe: { logSink } })
})
const runtime = ManagedRuntime.make(app)
const context = await runtime.context()
const address = Context.get(context, HttpServer.HttpServer).address
if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
const { secret } = await Effect.runPromise(
  Context.get(context, ApiKeys).create({ name: "bench", allowedModels: ["*"], allowedTools: ["*"] })
)

const lag = monitorEventLoopDelay({ resolution: 10 })
lag.enable()
const ms = (ns: number) => ns / 1e6

// Linux: nanoseconds on a CPU and waiting in the run queue, since the thread started.
const mainThreadSchedule = () => {
  const [onCpuNs = 0, runQueueNs = 0] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ").map(
    Number
  )
  return { onCpuNs, runQueueNs, idleMs: performance.eventLoopUtilization().idle }
}

/**
 * `heap-sample-start` and `heap-sample-stop` (bench/promotion.ts): V8's
 * sampling heap profiler over a load, keeping the samples of objects that
 * died in a young-generation collection (`collected: "minor"`) or that were
 * promoted and died in a full one (`"major"`, which a full collection forced
 * before the stop ends). The stop answers with the profile's file.
 */
interface HeapSampleRequest {
  readonly type: "heap-sample-start" | "heap-sample-stop"
  readonly collected: "minor" | "major"
}
// Connected at the first sample: the other benches run without an inspector session.
let inspector: Session | undefined
const heapSample = async ({ collected, type }: HeapSampleRequest): Promise<string | undefined> => {
  if (inspector === undefined) {
    inspector = new Session()
    inspector.connect()
  }
  if (type === "heap-sample-start") {
    await inspector.post("HeapProfiler.startSampling", {
      samplingInterval: 1024,
      includeObjectsCollectedByMinorGC: collected === "minor",
      includeObjectsCollectedByMajorGC: collected === "major"
    })
    return undefined
  }
  if (collected === "major") await inspector.post("HeapProfiler.collectGarbage")
  const { profile } = await inspector.post("HeapProfiler.stopSampling")
  const file = join(tmpdir(), `parley-heap-sample-${process.pid}-${collected}.json`)
  writeFileSync(file, JSON.stringify(profile))
  return file
}

process.on("message", (message: { type?: string; id?: number }) => {
  if (message.type === "stats") {
    const cpu = process.cpuUsage()
    process.send?.({
      type: "stats",
      id: message.id,
      cpuMicros: cpu.user + cpu.system,
      systemMicros: cpu.system,
      mainThread: mainThreadSchedule(),
      rss: process.memoryUsage.rss(),
      memory: process.memoryUsage(),
      lag: { p50: ms(lag.percentile(50)), p99: ms(lag.percentile(99)), max: ms(lag.max) }
    })
    lag.reset()
  }
  if (message.type === "heap-snapshot") {
    process.send?.({ type: "heap-snapshot", id: message.id, file: writeHeapSnapshot() })
  }
  if (message.type === "heap-sample-start" || message.type === "heap-sample-stop") {
    void heapSample(message as HeapSampleRequest).then((file) =>
      process.send?.({ type: message.type, id: message.id, file })
    )
  }
  if (message.type === "exit") void runtime.dispose().finally(() => process.exit(0))
})
process.on("disconnect", () => process.exit(0))
process.send?.({ type: "ready", url: `http://127.0.0.1:${address.port}`, key: secret })
