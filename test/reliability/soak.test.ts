import { afterAll, beforeAll, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { type GatewayProcess, type ProcessStats, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"
import { runLoad } from "../support/reliability/load.ts"
import { mixedRequest, unexpectedAnswers } from "../support/reliability/mix.ts"
import { mib, record } from "../support/reliability/record.ts"
import { FULL, sized } from "../support/reliability/size.ts"

/**
 * The mixed traffic at a steady 20 clients for minutes (seconds at CI size),
 * after a warm-up: what the gateway holds when idle again must not creep.
 * RSS may grow at most 10 % over the warmed-up figure; open files and active
 * handles (sockets, servers, timers: `probe.ts`) come back to where they were.
 * RSS counts native memory the JS heap does not: a statement cache of SQLite
 * that kept one ~0.5 MiB statement per ledger batch size grew it by ~120 MiB
 * here (README, "Reliability suite"), with the heap after a collection flat.
 *
 * At CI size it is a smoke test: 20 s of soak is too short to see memory
 * creep (that cache grew RSS by 35 % in 10 minutes, about 1 % in 20 s, below
 * the noise of one collection), so the RSS growth is recorded there and
 * asserted only at full size. The rest holds at either size: a leaked socket,
 * file or timer shows in seconds.
 */
let upstream: Upstream
let gateway: GatewayProcess

beforeAll(async () => {
  upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY, recordRequests: false })
  gateway = await startGatewayProcess({ upstreamUrl: upstream.url })
})
afterAll(async () => {
  await gateway?.stop()
  await upstream?.close()
})

const settle = async (): Promise<ProcessStats> => {
  // Idle connections close and cached entries expire within seconds (keys are cached 1 s). The
  // upstream's keep-alive sockets idle out after its 5 s `Keep-Alive: timeout`: after 3 s a CI run
  // still held 4 more than after the warm-up, all sockets, with handles flat.
  await new Promise((resolve) => setTimeout(resolve, 7_000))
  return gateway.stats()
}

/** The kinds in `end` beyond those in `start`, counted (a multiset difference). */
const added = (start: ReadonlyArray<string>, end: ReadonlyArray<string>): Array<string> => {
  const left = [...start]
  return end.filter((kind) => {
    const at = left.indexOf(kind)
    if (at === -1) return true
    left.splice(at, 1)
    return false
  })
}

const handles = (stats: ProcessStats) => Object.values(stats.resources).reduce((sum, count) => sum + count, 0)

const title = FULL
  ? "soak: RSS growth after warm-up ≤ 10 %, open files and handles flat"
  : "soak, smoke test at CI size: answers right, open files and handles flat (RSS growth recorded, asserted at full size)"

it(title, async ({ task }) => {
  const load = (seconds: number) =>
    runLoad({ url: gateway.url, concurrency: 20, durationMs: seconds * 1000, next: mixedRequest(gateway.key) })
  const warmUp = sized(20, 60)
  const soak = sized(20, 600)
  const warm = await load(warmUp)
  const after = await settle()
  const soaked = await load(soak)
  const end = await settle()
  const growth = (end.rss - after.rss) / after.rss
  record(task, `20 clients: ${warmUp} s warm-up, ${soak} s soak`, {
    requests: warm.sent + soaked.sent,
    rssAfterWarmUp: mib(after.rss),
    rssGrowth: `${(growth * 100).toFixed(1)} %`,
    heapAfterGc: `${mib(after.heapUsed)} → ${mib(end.heapUsed)}`,
    external: `${mib(after.external)} → ${mib(end.external)}`,
    openFiles: `${after.openFiles} → ${end.openFiles}`,
    newFiles: added(after.fileKinds, end.fileKinds).join(", ") || "none",
    handles: `${handles(after)} → ${handles(end)}`,
    timers: `${after.resources.Timeout ?? 0} → ${end.resources.Timeout ?? 0}`
  })
  expect(soaked.failures, soaked.failed.join("\n")).toEqual({})
  expect(unexpectedAnswers(soaked.byLabel)).toEqual([])
  if (FULL) expect(growth).toBeLessThanOrEqual(0.1)
  expect(
    end.openFiles,
    `open files after the warm-up: ${after.fileKinds.join(", ")}\nat the end: ${end.fileKinds.join(", ")}`
  ).toBeLessThanOrEqual(after.openFiles + 2)
  expect(handles(end)).toBeLessThanOrEqual(handles(after) + 2)
  expect(end.resources.Timeout ?? 0).toBeLessThanOrEqual((after.resources.Timeout ?? 0) + 2)
}, 900_000)
