import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { root } from "../scripts/build.ts"
import { type Child, spawnChild, startChild } from "./children.ts"
import type { Door, Target } from "./phases.ts"
import { DOORS, PROVIDER, ROUTE_PROVIDER, UPSTREAM_MODELS } from "./scenarios.ts"
import type { Settings } from "./settings.ts"

/**
 * The gateway's config file in `dir`: one provider, the scripted upstream at `upstreamUrl`, and a route
 * provider whose every model is a route to that provider's model of its name alone.
 */
export const writeConfig = (dir: string, upstreamUrl: string): string => {
  const configFile = join(dir, "parley.config.json")
  writeFileSync(
    configFile,
    JSON.stringify({
      providers: [{
        id: PROVIDER,
        type: "openai-compatible",
        baseURL: upstreamUrl,
        apiKey: "sk-bench-upstream",
        models: UPSTREAM_MODELS.map((id) => ({ id, name: id, categories: ["chat"], contextWindow: 128_000 }))
      }, {
        id: ROUTE_PROVIDER,
        type: "route",
        models: UPSTREAM_MODELS.map((id) => ({ id, strategy: "fallback", targets: [{ model: `${PROVIDER}/${id}` }] }))
      }]
    })
  )
  return configFile
}

export interface TargetOptions {
  /** Runs the gateway under `--cpu-prof`, its profile written to this folder when it stops. */
  readonly cpuProfileDir?: string | undefined
  /** Runs the gateway from its TypeScript instead of the bundle `npm start` runs. */
  readonly fromSources?: boolean | undefined
  /** Runs the gateway's Node under another program (`bench/instructions.ts`). */
  readonly wrapper?: ReadonlyArray<string> | undefined
  /** A commit (or any git revision) whose gateway runs beside this tree's, its ui door measured as `ui@REF`. */
  readonly baseline?: string | undefined
  /** The baseline's doors measured (`door@REF`, in this order); default its ui door alone. */
  readonly baselineDoors?: ReadonlyArray<string> | undefined
}

const doorsOf = (gateway: Child, suffix = ""): Array<Door> =>
  Object.entries(DOORS).map(([name, door]) => ({
    name: `${name}${suffix}`,
    url: `${String(gateway.ready.url)}${door.path}`,
    headers: { authorization: `Bearer ${String(gateway.ready.key)}` },
    body: door.body,
    gateway
  }))

/**
 * Starts the upstream and the gateway (fresh SQLite file, config file naming
 * the upstream) in child processes, and with `baseline` a second gateway from
 * that commit (`startBaseline`). A CPU profile samples every 100 µs (the
 * default 1 ms sees a few samples per request).
 */
export const startTarget = async (
  settings: Settings,
  options: TargetOptions = {}
): Promise<Target & { readonly stop: () => Promise<void> }> => {
  const { cpuProfileDir, fromSources = false, wrapper = [], baseline } = options
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-"))
  const started: Array<Child> = []
  const stopAll = async () => {
    for (const child of started.reverse()) await child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const upstream = await startChild("./upstreamProcess.ts", {
      BENCH_SLOW_CHUNKS: String(settings.openStreams.slowChunks),
      BENCH_SLOW_DELAY_MS: String(settings.openStreams.slowChunkDelayMs)
    })
    started.push(upstream)
    const upstreamUrl = String(upstream.ready.url)
    const configFile = writeConfig(dir, upstreamUrl)
    const gateway = await startChild(
      "./gatewayProcess.ts",
      { PARLEY_CONFIG: configFile, DATABASE_URL: `sqlite:${join(dir, "parley.db")}` },
      cpuProfileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-interval=100", `--cpu-prof-dir=${cpuProfileDir}`],
      fromSources,
      wrapper
    )
    started.push(gateway)
    const doors = doorsOf(gateway)
    if (baseline !== undefined) {
      const base = await startBaseline(baseline, {
        PARLEY_CONFIG: configFile,
        DATABASE_URL: `sqlite:${join(dir, "baseline.db")}`
      })
      started.push(base.gateway)
      const baseDoors = doorsOf(base.gateway, `@${base.commit}`)
      for (const name of options.baselineDoors ?? ["ui"]) {
        doors.push(baseDoors.find((door) => door.name === `${name}@${base.commit}`)!)
      }
    }
    return {
      settings,
      upstream,
      gateway,
      directUrl: `${upstreamUrl}/chat/completions`,
      chatUrl: doors[0]!.url,
      auth: doors[0]!.headers,
      doors,
      stop: stopAll
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}

/**
 * The gateway of another commit of this repository (`npm run bench --
 * --baseline=REF`), for an A/B of the ui door in one run: REF's files from
 * `git archive` in a temporary folder (outside node_modules, where Node strips
 * no types) with this tree's node_modules linked in (REF must need no package
 * this tree lacks), bundled
 * by REF's own scripts/build.ts and started with the Node flags of REF's
 * `start` script, on the same upstream with a database of its own.
 */
const startBaseline = async (ref: string, env: Record<string, string>) => {
  const commit = execFileSync("git", ["-C", root, "rev-parse", "--short", `${ref}^{commit}`], { encoding: "utf8" })
    .trim()
  const tree = mkdtempSync(join(tmpdir(), `parley-baseline-${commit}-`))
  const remove = () => rmSync(tree, { recursive: true, force: true })
  try {
    const archive = execFileSync("git", ["-C", root, "archive", "--format=tar", commit], {
      maxBuffer: 1024 ** 3
    })
    execFileSync("tar", ["-x", "-C", tree], { input: archive })
    symlinkSync(join(root, "node_modules"), join(tree, "node_modules"))
    const outdir = join(tree, "dist-bench")
    execFileSync(process.execPath, [join(tree, "scripts", "build.ts"), outdir], {
      stdio: ["ignore", "ignore", "inherit"]
    })
    const scripts = (JSON.parse(readFileSync(join(tree, "package.json"), "utf8")) as {
      scripts: Record<string, string>
    }).scripts
    const flags = (scripts["start"] ?? "").split(/\s+/).filter((word) => word.startsWith("--"))
    const gateway = await spawnChild(
      `the gateway of ${commit}`,
      join(outdir, "bench", "gatewayProcess.js"),
      env,
      flags,
      []
    )
    return { commit, gateway: { ...gateway, stop: () => gateway.stop().finally(remove) } }
  } catch (error) {
    remove()
    throw error
  }
}
