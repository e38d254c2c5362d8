import autocannon from "autocannon"
import { percentiles } from "./stats.ts"

export interface LoadRun {
  readonly url: string
  readonly body: string | ReadonlyArray<string>
  readonly headers?: Record<string, string>
  readonly connections: number
  readonly durationSeconds: number
}

export interface LoadResult {
  readonly requests: number
  readonly rps: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  /** Mean latency, ms. */
  readonly mean: number
  /** Errors, timeouts and non-2xx answers: a run with any is not a valid figure. */
  readonly failures: number
}

/**
 * One autocannon run of POSTs. Latencies are taken from autocannon's own
 * per-response timings (float ms) rather than its histogram, which keeps whole
 * milliseconds only: the figures that matter here are fractions of one.
 * Several bodies are sent in turn, one per request.
 */
export const load = async (run: LoadRun): Promise<LoadResult> => {
  const bodies = typeof run.body === "string" ? [run.body] : run.body
  const latencies: Array<number> = []
  // Without a callback autocannon returns its event emitter, made thenable; the types only know the promise.
  const instance = autocannon({
    url: run.url,
    connections: run.connections,
    duration: run.durationSeconds,
    requests: bodies.map((body) => ({
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...run.headers }
    }))
  }) as Promise<autocannon.Result> & autocannon.Instance
  instance.on("response", (_client: unknown, status: number, _bytes: number, time: number) => {
    if (status >= 200 && status < 300) latencies.push(time)
  })
  const result = await instance
  const [p50, p90, p99] = percentiles(latencies, [50, 90, 99])
  const elapsedSeconds = result.duration
  return {
    requests: latencies.length,
    rps: latencies.length / elapsedSeconds,
    p50: p50!,
    p90: p90!,
    p99: p99!,
    mean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    failures: result.errors + result.timeouts + result.non2xx
  }
}
