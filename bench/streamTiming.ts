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

const DONE = "data: [DONE]"

/**
 * Time to the first body byte and to `data: [DONE]` of streamed answers, one
 * request at a time over one kept-alive connection (a latency probe, not a
 * load generator: throughput comes from autocannon).
 */
export const timeStreams = async (
  url: string,
  body: string,
  headers: Record<string, string>,
  count: number
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
      for await (const chunk of response.body) {
        if (first === 0) first = performance.now()
        tail = (tail + chunk.toString("utf8")).slice(-64)
      }
      const end = performance.now()
      if (response.statusCode !== 200 || !tail.includes(DONE)) {
        failures++
        continue
      }
      ttfb.push(first - start)
      done.push(end - start)
    }
  } finally {
    await pool.close()
  }
  const [ttfbP50, ttfbP99] = percentiles(ttfb, [50, 99])
  const [doneP50, doneP99] = percentiles(done, [50, 99])
  return { count: ttfb.length, ttfbP50: ttfbP50!, ttfbP99: ttfbP99!, doneP50: doneP50!, doneP99: doneP99!, failures }
}
