import type { Child } from "./children.ts"
import { memoryOf } from "./children.ts"
import { load, type LoadResult } from "./load.ts"
import { openStreams } from "./openStreams.ts"
import { directBody, parleyBody } from "./scenarios.ts"
import type { Settings } from "./settings.ts"
import { median } from "./stats.ts"
import { timeStreams } from "./streamTiming.ts"

/** The two processes under test and how to reach them. */
export interface Target {
  readonly settings: Settings
  readonly upstream: Child
  readonly gateway: Child
  /** `…/v1/chat/completions` of the upstream. */
  readonly directUrl: string
  /** `…/api/v1/chat` of the gateway. */
  readonly chatUrl: string
  readonly auth: Record<string, string>
}

interface GatewayStats {
  readonly cpuMicros: number
  readonly mainThread: { readonly onCpuNs: number; readonly runQueueNs: number; readonly idleMs: number }
  readonly rss: number
  readonly lag: { readonly p50: number; readonly p99: number; readonly max: number }
}

const stats = (target: Target) => target.gateway.ask<GatewayStats>({ type: "stats" })

/**
 * Runs `work` and returns its result with the gateway's CPU time spent
 * meanwhile (ms), its peak RSS, and how its main thread spent the time (ms):
 * on a CPU, waiting for one (run queue), idle in the event loop.
 */
const measured = async <A>(target: Target, work: () => Promise<A>) => {
  let peakRss = 0
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(target.gateway.pid).rss)), 100)
  const before = await stats(target)
  const result = await work()
  const after = await stats(target)
  clearInterval(sampler)
  const mainThread = {
    onCpuMs: (after.mainThread.onCpuNs - before.mainThread.onCpuNs) / 1e6,
    runQueueMs: (after.mainThread.runQueueNs - before.mainThread.runQueueNs) / 1e6,
    idleMs: after.mainThread.idleMs - before.mainThread.idleMs
  }
  return {
    result,
    cpuMs: (after.cpuMicros - before.cpuMicros) / 1000,
    mainThread,
    peakRss: Math.max(peakRss, after.rss),
    lag: after.lag
  }
}

/** A, B, A, B …: `rounds` runs of each, alternating so drift in machine load hits both alike. */
const alternate = async <A, B>(rounds: number, a: () => Promise<A>, b: () => Promise<B>) => {
  const as: Array<A> = []
  const bs: Array<B> = []
  for (let round = 0; round < rounds; round++) {
    as.push(await a())
    bs.push(await b())
  }
  return { a: as, b: bs }
}

const medianOf = <A>(runs: ReadonlyArray<A>, pick: (run: A) => number) => median(runs.map(pick))

const summarize = (runs: ReadonlyArray<LoadResult>) => ({
  rps: medianOf(runs, (r) => r.rps),
  p50: medianOf(runs, (r) => r.p50),
  p90: medianOf(runs, (r) => r.p90),
  p99: medianOf(runs, (r) => r.p99),
  requests: runs.reduce((n, r) => n + r.requests, 0),
  failures: runs.reduce((n, r) => n + r.failures, 0)
})

/** Both kinds of request through both paths for a few seconds, so every figure is taken warm. */
export const warmUp = async (target: Target) => {
  const seconds = target.settings.warmupSeconds
  await load({ url: target.directUrl, body: directBody.text(true), connections: 10, durationSeconds: seconds })
  for (const body of [parleyBody.text(false), parleyBody.text(true), parleyBody.toolLoop()]) {
    await load({ url: target.chatUrl, body, headers: target.auth, connections: 10, durationSeconds: seconds })
  }
}

/** Non-streaming POST /chat against the upstream's own non-streaming answer, at one concurrency. */
export const nonStreaming = async (target: Target, connections: number, seconds: number) => {
  const runs = await alternate(
    target.settings.rounds,
    () => load({ url: target.directUrl, body: directBody.text(false), connections, durationSeconds: seconds }),
    () =>
      measured(
        target,
        () =>
          load({
            url: target.chatUrl,
            body: parleyBody.text(false),
            headers: target.auth,
            connections,
            durationSeconds: seconds
          })
      )
  )
  return {
    direct: summarize(runs.a),
    parley: summarize(runs.b.map((run) => run.result)),
    cpuMsPerRequest: medianOf(runs.b, (run) => run.cpuMs / run.result.requests),
    /** Per request, the gateway's main thread: on a CPU, runnable but waiting for one, idle in the event loop (ms). */
    mainThread: {
      onCpuMs: medianOf(runs.b, (run) => run.mainThread.onCpuMs / run.result.requests),
      runQueueMs: medianOf(runs.b, (run) => run.mainThread.runQueueMs / run.result.requests),
      idleMs: medianOf(runs.b, (run) => run.mainThread.idleMs / run.result.requests)
    },
    peakRss: Math.max(...runs.b.map((run) => run.peakRss))
  }
}

/** 20-chunk streamed answers: first byte and [DONE] one at a time, then CPU per answer under load. */
export const streaming = async (target: Target) => {
  const { settings } = target
  const timing = await alternate(
    settings.rounds,
    () => timeStreams(target.directUrl, directBody.text(true), {}, settings.streamProbes),
    () => timeStreams(target.chatUrl, parleyBody.text(true), target.auth, settings.streamProbes)
  )
  const loaded = await alternate(
    settings.rounds,
    () =>
      load({
        url: target.directUrl,
        body: directBody.text(true),
        connections: settings.streamConcurrency,
        durationSeconds: settings.seconds.streamLoad
      }),
    () =>
      measured(target, () =>
        load({
          url: target.chatUrl,
          body: parleyBody.text(true),
          headers: target.auth,
          connections: settings.streamConcurrency,
          durationSeconds: settings.seconds.streamLoad
        }))
  )
  const times = (runs: typeof timing.a) => ({
    ttfbP50: medianOf(runs, (r) => r.ttfbP50),
    ttfbP99: medianOf(runs, (r) => r.ttfbP99),
    doneP50: medianOf(runs, (r) => r.doneP50),
    doneP99: medianOf(runs, (r) => r.doneP99),
    failures: runs.reduce((n, r) => n + r.failures, 0)
  })
  return {
    direct: { ...times(timing.a), rps: medianOf(loaded.a, (r) => r.rps) },
    parley: { ...times(timing.b), rps: medianOf(loaded.b, (r) => r.result.rps) },
    cpuMsPerRequest: medianOf(loaded.b, (run) => run.cpuMs / run.result.requests),
    loadFailures: loaded.b.reduce((n, run) => n + run.result.failures, 0)
  }
}

/** Two tool calls then text: the loop's time and CPU beyond its three upstream calls, asked directly in turn. */
export const toolLoop = async (target: Target) => {
  const seconds = target.settings.seconds.toolLoop
  const runs = await alternate(
    target.settings.rounds,
    () => load({ url: target.directUrl, body: directBody.toolSteps(), connections: 1, durationSeconds: seconds }),
    () =>
      measured(
        target,
        () =>
          load({
            url: target.chatUrl,
            body: parleyBody.toolLoop(),
            headers: target.auth,
            connections: 1,
            durationSeconds: seconds
          })
      )
  )
  const upstreamCallP50 = medianOf(runs.a, (r) => r.p50)
  const loopP50 = medianOf(runs.b, (run) => run.result.p50)
  const cpuMsPerLoop = medianOf(runs.b, (run) => run.cpuMs / run.result.requests)
  return {
    upstreamCallP50,
    loopP50,
    addedMs: loopP50 - 3 * upstreamCallP50,
    addedMsPerStep: (loopP50 - 3 * upstreamCallP50) / 3,
    cpuMsPerLoop,
    cpuMsPerStep: cpuMsPerLoop / 3,
    failures: runs.b.reduce((n, run) => n + run.result.failures, 0) + runs.a.reduce((n, r) => n + r.failures, 0)
  }
}

/** Many streams open at once against the slow upstream: memory, event-loop lag, completion. */
export const manyStreams = async (target: Target) => {
  const { openStreams: o } = target.settings
  const before = await stats(target)
  const result = await openStreams({
    url: target.chatUrl,
    body: parleyBody.slow(),
    headers: target.auth,
    streams: o.streams,
    batch: o.batch,
    batchIntervalMs: o.batchIntervalMs,
    timeoutMs: o.timeoutMs,
    gatewayPid: target.gateway.pid,
    upstreamPid: target.upstream.pid
  })
  const after = await stats(target)
  return { ...result, lagP99: after.lag.p99, lagMax: after.lag.max, rssBefore: before.rss }
}
