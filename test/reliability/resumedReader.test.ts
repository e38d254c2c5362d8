import type { Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bearer } from "../support/http.ts"
import { type BulkGateway, startBulkGateway } from "../support/reliability/bulkGateway.ts"
import type { BulkUpstream } from "../support/reliability/bulkUpstream.ts"
import type { GatewayProcess } from "../support/reliability/gatewayProcess.ts"
import { openSocket, received, requestHead } from "../support/reliability/rawHttp.ts"
import { mib, record } from "../support/reliability/record.ts"
import { sized } from "../support/reliability/size.ts"

/**
 * docs/DESIGN.md §16 under the hardening rule of ordinary streams (issue 11
 * item 3): a resumable run whose client left runs on into its kept stream,
 * and a reader of the resumed stream that stops reading holds the gateway to
 * one read batch and one socket buffer, whatever the stream's size. The
 * figures are taken once the run has ended (a run holds its own answer while
 * it runs, for its next step's prompt, whoever reads it).
 */
let setup: BulkGateway
let bulk: BulkUpstream
let gateway: GatewayProcess
const STREAM_BYTES = sized(24, 60) * 1024 * 1024

beforeAll(async () => {
  setup = await startBulkGateway(STREAM_BYTES, { PARLEY_STREAM_MAX_BYTES: "128MiB" })
  ;({ bulk, gateway } = setup)
})
afterAll(() => setup?.stop())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("a slow reader of a resumed stream", () => {
  it("keeps the gateway's memory bounded, and reads the whole kept answer once it reads on", async ({ task }) => {
    const body = JSON.stringify({
      id: "bulk-chat",
      onDisconnect: "continue",
      model: "bulk/b1",
      messages: [{ role: "user", content: "everything" }],
      stream: true
    })
    const original = await openSocket(gateway.url)
    original.write(
      requestHead("POST", "/api/v1/chat", { ...bearer(gateway.key), "content-type": "application/json" }, body.length) +
        body
    )
    await received(original, "text-delta", 30_000)
    original.destroy()
    // The run goes on without its client, to its end.
    while (bulk.written() < STREAM_BYTES) await sleep(200)
    await sleep(1_000)
    const before = await gateway.stats()

    const reader: Socket = await openSocket(gateway.url)
    reader.write(requestHead("GET", "/api/v1/chat/bulk-chat/stream", bearer(gateway.key)))
    await received(reader, "text-delta", 30_000)
    reader.pause()
    let peakRss = before.rss
    let peakHeap = before.heapUsed + before.external
    const until = performance.now() + sized(8_000, 20_000)
    while (performance.now() < until) {
      await sleep(500)
      const stats = await gateway.stats()
      peakRss = Math.max(peakRss, stats.rss)
      peakHeap = Math.max(peakHeap, stats.heapUsed + stats.external)
    }

    // Read on: the whole answer comes, to its end.
    let got = 0
    let tail = ""
    const ended = new Promise<void>((resolve) => {
      reader.on("data", (data: Buffer) => {
        got += data.length
        tail = (tail + data.toString("latin1")).slice(-64)
        if (tail.includes("data: [DONE]")) resolve()
      })
    })
    reader.resume()
    await ended
    reader.destroy()
    record(task, `one ${mib(STREAM_BYTES)} kept stream, resumed reader paused ${sized(8, 20)} s`, {
      rssGrowth: mib(peakRss - before.rss),
      heapAndExternalGrowth: mib(peakHeap - before.heapUsed - before.external),
      resumedBytes: mib(got)
    })
    expect(got).toBeGreaterThan(STREAM_BYTES)
    expect(peakHeap - before.heapUsed - before.external).toBeLessThan(8 * 1024 * 1024)
    expect(peakRss - before.rss).toBeLessThan(16 * 1024 * 1024)
  }, 120_000)
})
