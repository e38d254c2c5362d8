import type { Child } from "./children.ts"
import { memoryOf } from "./children.ts"
import { load, type LoadResult } from "./load.ts"
import { openStreams } from "./openStreams.ts"
import { directBody, DONE, type DoorBodies, resumableBody } from "./scenarios.ts"
import type { Settings } from "./settings.ts"
import { median } from "./stats.ts"
import { timeStreams } from "./streamTiming.ts"

/** One door of a gateway: where a chat goes, with which key and body, and whose CPU it costs. */
export interface Door {
  /** A name of `DOORS` (`ui`, `chat-completions`, `responses`, `messages`), or `ui@REF` for a baseline tree's. */
  readonly name: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: DoorBodies
  readonly gateway: Child
}

/** The processes under test and how to reach them. */
export interface Target {
  readonly settings: Settings
  readonly upstream: Child
  readonly gateway: Child
  /** `…/v1/chat/completions` of the upstream. */
  readonly directUrl: string
  /** `…/api/v1/chat` of the gateway. */
  readonly chatUrl: string
  readonly auth: Record<string, string>
  /**
   * The doors measured A/B in each round: the gateway's ui door first (the
   * figures of the main table), its other doors, and a baseline
   * tree's ui door when one runs (`--baseline=REF`).
   */
  readonly doors: ReadonlyArray<Door>
}

interface GatewayStats {
  readonly cpuMicros: number
  readonly mainThread: { readonly onCpuNs: number; readonly runQueueNs: number; readonly idleMs: number }
  readonly rss: number
  readonly lag: { readonly p50: number; readonly p99: number; readonly max: number }
}

const stats = (gateway: Child) => gateway.ask<GatewayStats>({ type: "stats" })

/**
 * Runs `work` and returns its result with the gateway's CPU time spent
 * meanwhile (ms), its peak RSS, and how its main thread spent the time (ms):
 * on a CPU, waiting for one (run queue), idle in the event loop.
 */
const measured = async <A>(gateway: Child, work: () => Promise<A>) => {
  let peakRss = 0
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(gateway.pid).rss)), 100)
  const before = await stats(gateway)
  const result = await work()
  const after = await stats(gateway)
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

/**
 * `rounds` rounds of the direct run followed by every door once, the doors'
 * order rotated each round, so that drift in machine load and the place in a
 * round hit every door alike.
 */
const interleave = async <D, A>(
  rounds: number,
  doors: ReadonlyArray<Door>,
  direct: () => Promise<D>,
  run: (door: Door) => Promise<A>
) => {
  const directRuns: Array<D> = []
  const byDoor = new Map<string, Array<A>>(doors.map((door) => [door.name, []]))
  for (let round = 0; round < rounds; round++) {
    directRuns.push(await direct())
    for (let i = 0; i < doors.length; i++) {
      const door = doors[(round + i) % doors.length]!
      byDoor.get(door.name)!.push(await run(door))
    }
  }
  return { direct: directRuns, of: (door: Door) => byDoor.get(door.name)! }
}

/** The first door's figures at the top level (the main table's), every other door's under `doors`. */
const byDoor = <F>(doors: ReadonlyArray<Door>, figures: (door: Door) => F) => {
  const [first, ...others] = doors
  return { ...figures(first!), doors: Object.fromEntries(others.map((door) => [door.name, figures(door)])) }
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

/** Every kind of request through every path for a few seconds, so every figure is taken warm. */
export const warmUp = async (target: Target) => {
  const seconds = target.settings.warmupSeconds
  await load({ url: target.directUrl, body: directBody.text(true), connections: 10, durationSeconds: seconds })
  for (const [i, door] of target.doors.entries()) {
    const bodies = [door.body.text(false), door.body.text(true), ...(i === 0 ? [door.body.toolLoop()] : [])]
    for (const body of bodies) {
      await load({ url: door.url, body, headers: door.headers, connections: 10, durationSeconds: seconds })
    }
  }
}

/** Non-streaming chats through every door against the upstream's own non-streaming answer, at one concurrency. */
export const nonStreaming = async (target: Target, connections: number, seconds: number) => {
  const runs = await interleave(
    target.settings.rounds,
    target.doors,
    () => load({ url: target.directUrl, body: directBody.text(false), connections, durationSeconds: seconds }),
    (door) =>
      measured(
        door.gateway,
        () =>
          load({
            url: door.url,
            body: door.body.text(false),
            headers: door.headers,
            connections,
            durationSeconds: seconds
          })
      )
  )
  return {
    direct: summarize(runs.direct),
    ...byDoor(target.doors, (door) => {
      const b = runs.of(door)
      return {
        parley: summarize(b.map((run) => run.result)),
        cpuMsPerRequest: medianOf(b, (run) => run.cpuMs / run.result.requests),
        /** Per request, the gateway's main thread: on a CPU, runnable but waiting for one, idle in the event loop (ms). */
        mainThread: {
          onCpuMs: medianOf(b, (run) => run.mainThread.onCpuMs / run.result.requests),
          runQueueMs: medianOf(b, (run) => run.mainThread.runQueueMs / run.result.requests),
          idleMs: medianOf(b, (run) => run.mainThread.idleMs / run.result.requests)
        },
        peakRss: Math.max(...b.map((run) => run.peakRss))
      }
    })
  }
}

/** 20-chunk streamed answers through every door: first byte and [DONE] one at a time, then CPU per answer under load. */
export const streaming = async (target: Target) => {
  const { settings } = target
  const timing = await interleave(
    settings.rounds,
    target.doors,
    () => timeStreams(target.directUrl, directBody.text(true), {}, settings.streamProbes, DONE),
    (door) => timeStreams(door.url, door.body.text(true), door.headers, settings.streamProbes, door.body.streamEnd)
  )
  const loaded = await interleave(
    settings.rounds,
    target.doors,
    () =>
      load({
        url: target.directUrl,
        body: directBody.text(true),
        connections: settings.streamConcurrency,
        durationSeconds: settings.seconds.streamLoad
      }),
    (door) =>
      measured(door.gateway, () =>
        load({
          url: door.url,
          body: door.body.text(true),
          headers: door.headers,
          connections: settings.streamConcurrency,
          durationSeconds: settings.seconds.streamLoad
        }))
  )
  const times = (runs: typeof timing.direct) => ({
    ttfbP50: medianOf(runs, (r) => r.ttfbP50),
    ttfbP99: medianOf(runs, (r) => r.ttfbP99),
    doneP50: medianOf(runs, (r) => r.doneP50),
    doneP99: medianOf(runs, (r) => r.doneP99),
    failures: runs.reduce((n, r) => n + r.failures, 0)
  })
  return {
    direct: { ...times(timing.direct), rps: medianOf(loaded.direct, (r) => r.rps) },
    ...byDoor(target.doors, (door) => ({
      parley: { ...times(timing.of(door)), rps: medianOf(loaded.of(door), (r) => r.result.rps) },
      cpuMsPerRequest: medianOf(loaded.of(door), (run) => run.cpuMs / run.result.requests),
      loadFailures: loaded.of(door).reduce((n, run) => n + run.result.failures, 0)
    }))
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
        target.gateway,
        () =>
          load({
            url: target.chatUrl,
            body: target.doors[0]!.body.toolLoop(),
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

/**
 * Many streams open at once through one door (the first) against the slow
 * upstream: memory, event-loop lag, completion. `resumable`: that many runs
 * of the `ui` door, each under a chat id of its own with `onDisconnect: "continue"`,
 * so every stream is also kept (docs/DESIGN.md §16).
 */
export const manyStreams = async (target: Target, door: Door = target.doors[0]!, resumable?: number) => {
  const { openStreams: o } = target.settings
  const before = await stats(door.gateway)
  const run = `${Date.now().toString(36)}`
  const slow = door.body.slow()
  const result = await openStreams({
    url: door.url,
    body: resumable === undefined ? () => slow : (i) => resumableBody(`bench-${run}-${i}`),
    headers: door.headers,
    streams: resumable ?? o.streams,
    batch: o.batch,
    batchIntervalMs: o.batchIntervalMs,
    timeoutMs: o.timeoutMs,
    gatewayPid: door.gateway.pid,
    upstreamPid: target.upstream.pid
  })
  const after = await stats(door.gateway)
  return { ...result, lagP99: after.lag.p99, lagMax: after.lag.max, rssBefore: before.rss }
}
