import { Pool } from "undici"
import { percentiles } from "./stats.ts"

export interface StreamTiming {
  readonly count: number
  readonly ttfbP50: number
  readonly ttfbP99: number
  readonly doneP50: number
  readonly doneP99: number
  readonly failures: number
}

/**
 * Time to the first body byte and to the end (`end`: `data: [DONE]`, or a door's last event) of streamed answers, one
 * request at a time over one kept-alive connection (a latency probe, not a
 * load generator: throughput comes from autocannon).
 */
export const timeStreams = async (
  url: string,
  body: string,
  headers: Record<string, string>,
  count: number,
  end: string
): Promise<StreamTiming> => {
  const target = new URL(url)
  const pool = new Pool(target.origin, { connections: 1 })
  const ttfb: Array<number> = []
  const done: Array<number> = []
  let failures = 0
  try {
    for (let i = 0; i < count; i++) {
      const start = performance.now()
      const response = await pool.request({
        method: "POST",
        path: target.pathname,
        headers: { "content-type": "application/json", ...headers },
        body
      })
      let first = 0
      let tail = ""
      let ended = false
      for await (const chunk of response.body) {
        if (first === 0) first = performance.now()
        // The end marker may straddle two chunks, and a last event's data may follow it.
        const text = tail + chunk.toString("utf8")
        ended ||= text.includes(end)
        tail = text.slice(-64)
      }
      const last = performance.now()
      if (response.statusCode !== 200 || !ended) {
        failures++
        continue
      }
      ttfb.push(first - start)
      done.push(last - start)
    }
  } finally {
    await pool.close()
  }
  const [ttfbP50, ttfbP99] = percentiles(ttfb, [50, 99])
  const [doneP50, doneP99] = percentiles(done, [50, 99])
  return { count: ttfb.length, ttfbP50: ttfbP50!, ttfbP99: ttfbP99!, doneP50: doneP50!, doneP99: doneP99!, failures }
}
