import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startChild } from "./children.ts"
import type { Target } from "./phases.ts"
import { PROVIDER, UPSTREAM_MODELS } from "./scenarios.ts"
import type { Settings } from "./settings.ts"

/** The gateway's config file in `dir`: one provider, the scripted upstream at `upstreamUrl`. */
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
      }]
    })
  )
  return configFile
}

/**
 * Starts the upstream and the gateway (fresh SQLite file, config file naming
 * the upstream) in child processes. `cpuProfileDir` runs the gateway under
 * `--cpu-prof`, sampling every 100 µs (the default 1 ms sees a few samples
 * per request); the profile is written when it stops. `fromSources` runs the
 * gateway from its TypeScript instead of the bundle `npm start` runs;
 * `wrapper` runs the gateway's Node under another program (`bench/instructions.ts`).
 */
export const startTarget = async (
  settings: Settings,
  cpuProfileDir?: string,
  fromSources = false,
  wrapper: ReadonlyArray<string> = []
): Promise<Target & { readonly stop: () => Promise<void> }> => {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-"))
  const upstream = await startChild("./upstreamProcess.ts", {
    BENCH_SLOW_CHUNKS: String(settings.openStreams.slowChunks),
    BENCH_SLOW_DELAY_MS: String(settings.openStreams.slowChunkDelayMs)
  })
  const upstreamUrl = String(upstream.ready.url)
  const configFile = writeConfig(dir, upstreamUrl)
  const gateway = await startChild(
    "./gatewayProcess.ts",
    { PARLEY_CONFIG: configFile, DATABASE_URL: `sqlite:${join(dir, "parley.db")}` },
    cpuProfileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-interval=100", `--cpu-prof-dir=${cpuProfileDir}`],
    fromSources,
    wrapper
  ).catch(async (error) => {
    await upstream.stop()
    throw error
  })
  return {
    settings,
    upstream,
    gateway,
    directUrl: `${upstreamUrl}/chat/completions`,
    chatUrl: `${String(gateway.ready.url)}/api/v1/chat`,
    auth: { authorization: `Bearer ${String(gateway.ready.key)}` },
    stop: async () => {
      await gateway.stop()
      await upstream.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
