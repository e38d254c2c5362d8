import { Agent, request } from "undici"
import { percentile } from "./record.ts"

/** One request of a load mix. */
export interface LoadRequest {
  /** Groups the figures (`stream`, `json`, `tools`, `bad-json` …). */
  readonly label: string
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS"
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

export interface LoadResult {
  readonly sent: number
  /** Answers by status. */
  readonly statuses: Readonly<Record<number, number>>
  /** Requests that got no complete answer (reset, timeout …), by error code. */
  readonly failures: Readonly<Record<string, number>>
  /** The first few requests that got no answer, as `code: method path`. */
  readonly failed: ReadonlyArray<string>
  /** Statuses of each label, for a failure's message. */
  readonly byLabel: Readonly<Record<string, Readonly<Record<number, number>>>>
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  readonly requestsPerSecond: number
}

export interface LoadOptions {
  readonly url: string
  readonly concurrency: number
  readonly durationMs: number
  /** Stop sending once this many requests were sent, even before `durationMs`. */
  readonly maxRequests?: number
  /** The i-th request of the run. */
  readonly next: (i: number) => LoadRequest
  /** A request not answered in full within this is a failure (default 60 s). */
  readonly timeoutMs?: number
}

const bump = (counts: Record<string | number, number>, key: string | number) => (counts[key] = (counts[key] ?? 0) + 1)

/**
 * `concurrency` clients, each sending its next request as soon as the last
 * one is read to the end, for `durationMs`; over keep-alive connections, as a
 * busy front end would. Every body is read whole (a stream to `[DONE]`).
 */
export const runLoad = async (options: LoadOptions): Promise<LoadResult> => {
  const timeoutMs = options.timeoutMs ?? 60_000
  const agent = new Agent({ connections: options.concurrency, headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
  const statuses: Record<number, number> = {}
  const failures: Record<string, number> = {}
  const byLabel: Record<string, Record<number, number>> = {}
  const failed: Array<string> = []
  const latencies: Array<number> = []
  let sent = 0
  const started = performance.now()
  const end = started + options.durationMs

  const client = async () => {
    while (performance.now() < end && sent < (options.maxRequests ?? Number.POSITIVE_INFINITY)) {
      const next = options.next(sent++)
      const at = performance.now()
      try {
        const response = await request(`${options.url}${next.path}`, {
          dispatcher: agent,
          method: next.method,
          headers: next.headers ?? {},
          ...(next.body === undefined ? {} : { body: next.body })
        })
        await response.body.text()
        latencies.push(performance.now() - at)
        bump(statuses, response.statusCode)
        bump(byLabel[next.label] ??= {}, response.statusCode)
      } catch (error) {
        const code = (error as { code?: string }).code ?? String(error)
        bump(failures, code)
        if (failed.length < 5) failed.push(`${code}: ${next.method} ${next.path.slice(0, 120)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, client))
  const elapsed = performance.now() - started
  await agent.close()
  latencies.sort((a, b) => a - b)
  return {
    sent,
    statuses,
    failures,
    failed,
    byLabel,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? Number.NaN,
    requestsPerSecond: (latencies.length / elapsed) * 1000
  }
}
