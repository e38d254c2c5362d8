import { readdirSync } from "node:fs"
import { Pool } from "undici"
import { memoryOf, openFileLimit } from "./children.ts"
import { DONE } from "./scenarios.ts"

export interface OpenStreamsRun {
  readonly url: string
  /** The body of the `i`th stream (a resumable run needs a chat id of its own). */
  readonly body: (i: number) => string
  readonly headers: Record<string, string>
  readonly streams: number
  /** Requests started per batch, one batch per `batchIntervalMs`: connects stay under the listen backlog. */
  readonly batch: number
  readonly batchIntervalMs: number
  /** Gives up on streams still open after this long. */
  readonly timeoutMs: number
  readonly gatewayPid: number
  readonly upstreamPid: number
}

export interface OpenStreamsResult {
  readonly streams: number
  readonly completed: number
  readonly failed: number
  /** Client connections to the gateway, and requests pipelined on each. */
  readonly connections: number
  readonly pipelining: number
  /** Why streams failed: status codes and error codes, with counts. */
  readonly failures: Record<string, number>
  /** Most upstream connections the gateway held at once: its streams in flight. */
  readonly peakUpstreamConnections: number
  /** Most file descriptors the gateway held at once (client and upstream sockets, files). */
  readonly peakGatewayFds: number
  readonly peakRss: number
  readonly seconds: number
}

const MARGIN_FDS = 200

/**
 * Each stream costs the gateway two sockets (client and upstream). Where the
 * open-file hard limit cannot hold that (it cannot be raised in some
 * containers), two or more requests are pipelined on each client connection:
 * the gateway still runs every stream at once, it just writes the later ones
 * to their connection after the earlier ones finish.
 */
export const pipeliningFor = (streams: number, limit = openFileLimit()): number => {
  const spare = limit - streams - MARGIN_FDS
  if (spare <= 0) throw new Error(`open-file limit ${limit} cannot hold ${streams} upstream connections`)
  return Math.max(1, Math.ceil(streams / spare))
}

const socketsOf = (pid: number): number => {
  try {
    return readdirSync(`/proc/${pid}/fd`).length
  } catch {
    return 0
  }
}

/** Opens `streams` streams through the gateway against the slow upstream and reads each to `[DONE]`. */
export const openStreams = async (run: OpenStreamsRun): Promise<OpenStreamsResult> => {
  const pipelining = pipeliningFor(run.streams)
  const connections = Math.ceil(run.streams / pipelining)
  const target = new URL(run.url)
  const pool = new Pool(target.origin, {
    connections,
    pipelining,
    headersTimeout: run.timeoutMs,
    bodyTimeout: run.timeoutMs
  })
  const baseFds = socketsOf(run.upstreamPid)
  let peakRss = 0
  let peakUpstream = 0
  let peakFds = 0
  const sample = () => {
    peakRss = Math.max(peakRss, memoryOf(run.gatewayPid).rss)
    peakUpstream = Math.max(peakUpstream, socketsOf(run.upstreamPid) - baseFds)
    peakFds = Math.max(peakFds, socketsOf(run.gatewayPid))
  }
  const sampler = setInterval(sample, 200)
  let completed = 0
  const failures: Record<string, number> = {}
  const fail = (why: string) => void (failures[why] = (failures[why] ?? 0) + 1)
  const one = async (i: number) => {
    try {
      const response = await pool.request({
        method: "POST",
        path: target.pathname,
        headers: { "content-type": "application/json", ...run.headers },
        body: run.body(i),
        // POST is not pipelined unless marked safe to: the bench knows each request stands alone.
        idempotent: true
      })
      let tail = ""
      for await (const chunk of response.body) tail = (tail + chunk.toString("utf8")).slice(-64)
      if (response.statusCode === 200 && tail.includes(DONE)) completed++
      else fail(response.statusCode === 200 ? "no [DONE]" : `HTTP ${response.statusCode}`)
    } catch (error) {
      fail((error as { code?: string }).code ?? String(error))
    }
  }
  const started = performance.now()
  const all: Array<Promise<void>> = []
  for (let begun = 0; begun < run.streams; begun += run.batch) {
    for (let i = begun; i < Math.min(run.streams, begun + run.batch); i++) all.push(one(i))
    await new Promise((resolve) => setTimeout(resolve, run.batchIntervalMs))
  }
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, run.timeoutMs).unref())
  await Promise.race([Promise.all(all), deadline])
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  sample()
  await pool.destroy()
  return {
    streams: run.streams,
    completed,
    failed: run.streams - completed,
    failures,
    connections,
    pipelining,
    peakUpstreamConnections: peakUpstream,
    peakGatewayFds: peakFds,
    peakRss,
    seconds
  }
}
