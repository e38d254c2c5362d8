import { Effect, Layer } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { type AddressInfo, createServer } from "node:net"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { build, bundledFile, root, startFlags } from "../scripts/build.ts"
import { ApiKeys } from "../src/auth/ApiKeys.ts"
import * as Database from "../src/store/Database.ts"
import { memoryOf, startChild } from "./children.ts"
import { load } from "./load.ts"
import { parleyBody } from "./scenarios.ts"
import type { Settings } from "./settings.ts"
import { writeConfig } from "./setup.ts"
import { median } from "./stats.ts"

/**
 * `npm run bench -- --workers auto` (or a count): non-streaming POST /chat at
 * c=50 through `npm start -- --workers 1` and then `--workers N`, each from
 * the production bundle over one SQLite file and one scripted upstream, with
 * the RSS of the primary and its workers summed. The load generator and the
 * upstream share this machine's cores with the workers, so N workers gain less
 * than N times here than on a host of their own.
 */
const CONNECTIONS = 50
const log = (text: string) => process.stderr.write(`[bench] ${text}\n`)

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

const childrenOf = async (pid: number): Promise<ReadonlyArray<number>> => {
  const { readFile } = await import("node:fs/promises")
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "")
  return text.trim().split(/\s+/).filter((word) => word !== "").map(Number)
}

/** Starts the bundle with `--workers count` and resolves once every worker listens. */
const startWorkers = (main: string, count: number, env: Record<string, string>) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const primary = spawn(process.execPath, [...startFlags(), main, "--workers", String(count)], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let listening = 0
    primary.stdout?.on("data", (chunk: Buffer) => {
      listening += chunk.toString("utf8").split("Listening on").length - 1
      if (listening === count) resolve(primary)
    })
    primary.once("exit", (code) => reject(new Error(`--workers ${count} exited with ${code} before listening`)))
  })

const stopped = (primary: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (primary.exitCode !== null) return resolve()
    primary.once("exit", () => resolve())
    primary.kill("SIGTERM")
  })

export const compareWorkers = async (settings: Settings, auto: number) => {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-workers-"))
  const cache = join(root, "node_modules", ".cache")
  mkdirSync(cache, { recursive: true })
  const outdir = mkdtempSync(join(cache, "parley-bench-"))
  const upstream = await startChild("./upstreamProcess.ts", { BENCH_SLOW_CHUNKS: "1", BENCH_SLOW_DELAY_MS: "1" })
  try {
    await build(outdir)
    const databaseUrl = `sqlite:${join(dir, "parley.db")}`
    const { secret } = await Effect.runPromise(
      Effect.flatMap(
        ApiKeys,
        (keys) => keys.create({ name: "bench", allowedModels: ["*"], allowedTools: ["*"] })
      ).pipe(
        Effect.provide(ApiKeys.layer.pipe(Layer.provide(Database.layerFromUrl(databaseUrl))))
      )
    )
    const rows = []
    for (const count of [1, auto]) {
      const port = await freePort()
      log(`--workers ${count}: starting`)
      const primary = await startWorkers(bundledFile(outdir, "src/main.ts"), count, {
        HOST: "127.0.0.1",
        PORT: String(port),
        PARLEY_CONFIG: writeConfig(dir, String(upstream.ready.url)),
        DATABASE_URL: databaseUrl,
        PARLEY_SANDBOX_DIR: join(dir, "sandboxes")
      })
      try {
        const run = (seconds: number) =>
          load({
            url: `http://127.0.0.1:${port}/api/v1/chat`,
            body: parleyBody.text(false),
            headers: { authorization: `Bearer ${secret}` },
            connections: CONNECTIONS,
            durationSeconds: seconds
          })
        await run(settings.warmupSeconds)
        const pids = [primary.pid!, ...(await childrenOf(primary.pid!))]
        const rssAtRest = pids.reduce((sum, pid) => sum + memoryOf(pid).rss, 0)
        const runs = []
        for (let round = 0; round < settings.rounds; round++) runs.push(await run(settings.seconds.c50))
        rows.push({
          workers: count,
          rps: median(runs.map((r) => r.rps)),
          p50: median(runs.map((r) => r.p50)),
          p99: median(runs.map((r) => r.p99)),
          failures: runs.reduce((n, r) => n + r.failures, 0),
          rssMiB: rssAtRest / 1024 / 1024
        })
      } finally {
        await stopped(primary)
      }
    }
    return { cores: cpus().length, connections: CONNECTIONS, rows }
  } finally {
    await upstream.stop()
    rmSync(outdir, { recursive: true, force: true })
    rmSync(dir, { recursive: true, force: true })
  }
}
