import type { Socket } from "node:net"
import { Client } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { bearer, chatBody } from "../support/http.ts"
import { type BulkGateway, startBulkGateway } from "../support/reliability/bulkGateway.ts"
import type { BulkUpstream } from "../support/reliability/bulkUpstream.ts"
import { type GatewayProcess, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"
import { openSocket, received, requestHead } from "../support/reliability/rawHttp.ts"
import { mib, ms, record } from "../support/reliability/record.ts"
import { sized } from "../support/reliability/size.ts"

/**
 * Clients that misbehave, against the gateway in its own process: disconnects
 * at every phase of a request (each aborts the upstream call within a second,
 * docs/DESIGN.md §3.14, and leaves no socket behind), slow readers (issue 11
 * item 3: bounded memory), mass drops, a refused request on a keep-alive
 * connection (item 4) and a flood of idle connections (item 5).
 */
let setup: BulkGateway
let upstream: Upstream
let bulk: BulkUpstream
let gateway: GatewayProcess
const SLOW_STREAM_BYTES = sized(64, 200) * 1024 * 1024

beforeAll(async () => {
  setup = await startBulkGateway(SLOW_STREAM_BYTES, { PARLEY_BODY_LIMIT: "64KiB" })
  ;({ upstream, bulk, gateway } = setup)
})
afterAll(() => setup?.stop())

const chatHead = (body: string, extra: Record<string, string> = {}) =>
  requestHead("POST", "/api/v1/chat", {
    ...bearer(gateway.key),
    "content-type": "application/json",
    ...extra
  }, Buffer.byteLength(body))

/** Sockets the gateway holds, once it has had a moment to close what it should. */
const openSockets = async () => {
  await new Promise((resolve) => setTimeout(resolve, 300))
  const { resources } = await gateway.stats()
  return resources.TCPSocketWrap ?? 0
}

const healthy = async () => {
  const response = await fetch(`${gateway.url}/api/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...bearer(gateway.key) },
    body: JSON.stringify(chatBody({ messages: [{ role: "user", content: "still there?" }] }))
  })
  expect(response.status).toBe(200)
  expect((await response.json()).data.messages.at(-1).parts.at(-1).text).toContain("still there?")
}

describe("client faults", () => {
  it("disconnects at every phase abort the upstream call within 1 s and leave no socket", async ({ task }) => {
    const baseline = await openSockets()
    const upstreamCalls = upstream.requests.length
    const body = JSON.stringify(chatBody({ stream: true }))

    // Before the body: headers announce one that never comes. Mid-body: half of it.
    for (const sent of ["", body.slice(0, body.length / 2)]) {
      const socket = await openSocket(gateway.url)
      socket.write(chatHead(body) + sent)
      await new Promise((resolve) => setTimeout(resolve, 200))
      socket.destroy()
    }
    expect(upstream.requests.length).toBe(upstreamCalls)

    // After the response headers, mid-stream, and while a JSON answer is awaited.
    const text = "a b c d e f g h i j k l m n o p q r s t"
    const slow = { type: "text" as const, text, chunkDelayMs: 500 }
    // A JSON answer asks for a whole answer (docs/DESIGN.md §3.23): slow to come, not slow to stream.
    const slowWhole = { type: "text" as const, text, delayMs: 5_000 }
    const phases = [
      { name: "afterHeaders", body, until: "\r\n\r\n", reply: slow },
      { name: "midStream", body, until: "text-delta", reply: slow },
      { name: "awaitingJson", body: JSON.stringify(chatBody({ stream: false })), until: "", reply: slowWhole }
    ]
    const figures: Record<string, string> = {}
    for (const phase of phases) {
      upstream.enqueue(phase.reply)
      const socket = await openSocket(gateway.url)
      socket.write(chatHead(phase.body) + phase.body)
      if (phase.until === "") {
        while (upstream.requests.length === upstreamCalls + phases.indexOf(phase)) {
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      } else {
        await received(socket, phase.until)
      }
      const droppedAt = performance.now()
      socket.destroy()
      await upstream.waitForAbort(5_000)
      figures[phase.name] = ms(performance.now() - droppedAt)
    }
    record(task, "5 phases, one client each", figures)
    for (const abortedIn of Object.values(figures)) expect(Number.parseInt(abortedIn)).toBeLessThan(1_000)
    expect(await openSockets()).toBeLessThanOrEqual(baseline)
    await healthy()
  })

  it("mass drop: clients leaving at once abort all their upstream calls within 1 s", async ({ task }) => {
    const clients = sized(100, 500)
    upstream.respondWith(() => ({ type: "text", text: "word ".repeat(200), chunkDelayMs: 200 }))
    const body = JSON.stringify(chatBody({ stream: true }))
    const sockets: Array<Socket> = []
    await Promise.all(Array.from({ length: clients }, async () => {
      const socket = await openSocket(gateway.url)
      sockets.push(socket)
      socket.write(chatHead(body) + body)
      await received(socket, "text-delta", 30_000)
    }))
    const aborts = Array.from({ length: clients }, () => upstream.waitForAbort(10_000))
    const droppedAt = performance.now()
    for (const socket of sockets) socket.destroy()
    const settled = await Promise.allSettled(aborts)
    const abortedIn = performance.now() - droppedAt
    const aborted = settled.filter((result) => result.status === "fulfilled").length
    record(task, `${clients} streaming clients`, { aborted: `${aborted}/${clients}`, allAbortedIn: ms(abortedIn) })
    expect(aborted).toBe(clients)
    expect(abortedIn).toBeLessThan(1_000)
  }, 120_000)

  it("a refused request on a keep-alive connection leaves the next one working (401, 413)", async () => {
    const client = new Client(gateway.url, { pipelining: 1 })
    try {
      const big = "x".repeat(256 * 1024)
      for (const refused of [{ headers: {}, status: 401 }, { headers: bearer(gateway.key), status: 413 }]) {
        const first = await client.request({
          method: "POST",
          path: "/api/v1/chat",
          headers: { "content-type": "application/json", ...refused.headers },
          body: big
        })
        await first.body.text()
        expect(first.statusCode).toBe(refused.status)
        const next = await client.request({ method: "GET", path: "/api/v1/models", headers: bearer(gateway.key) })
        await next.body.text()
        expect(next.statusCode).toBe(200)
      }
    } finally {
      await client.close()
    }
  })

  it("a slow reader keeps the gateway's memory bounded and holds the upstream back", async ({ task }) => {
    const before = await gateway.stats()
    const writtenBefore = bulk.written()
    const body = JSON.stringify(chatBody({ model: "bulk/b1", stream: true }))
    const socket = await openSocket(gateway.url)
    socket.write(chatHead(body) + body)
    await received(socket, "text-delta", 30_000)
    // The client stops reading; the gateway must stop reading the provider once its socket buffer is full.
    socket.pause()
    let peakRss = before.rss
    const until = performance.now() + sized(8_000, 20_000)
    while (performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      peakRss = Math.max(peakRss, (await gateway.stats()).rss)
    }
    const upstreamSent = bulk.written() - writtenBefore
    socket.destroy()
    record(task, `one ${mib(SLOW_STREAM_BYTES)} stream, reader paused ${sized(8, 20)} s`, {
      rssGrowth: mib(peakRss - before.rss),
      upstreamSentWhilePaused: mib(upstreamSent)
    })
    expect(peakRss - before.rss).toBeLessThan(32 * 1024 * 1024)
    expect(upstreamSent).toBeLessThan(32 * 1024 * 1024)
  }, 120_000)
})

describe("idle-connection flood", () => {
  let flooded: GatewayProcess
  const FILE_LIMIT = sized(1024, 4096)
  beforeAll(async () => {
    flooded = await startGatewayProcess({ upstreamUrl: upstream.url, openFileLimit: FILE_LIMIT })
  })
  afterAll(() => flooded?.stop())

  it("idle half-sent connections beyond the fd limit leave /health and chat answering", async ({ task }) => {
    // A prompt answer: the probes measure the flood, not a slow provider left by an earlier test.
    upstream.respondWith(() => ({ type: "text", text: "still here" }))
    const idle = FILE_LIMIT + 500
    const sockets: Array<Socket> = []
    const failures: Array<string> = []
    try {
      for (let i = 0; i < idle; i++) {
        const socket = await openSocket(flooded.url).catch(() => undefined)
        if (socket === undefined) continue
        socket.on("error", () => {})
        socket.write("POST /api/v1/chat HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sockets.push(socket)
      }
      let slowest = 0
      for (let probe = 0; probe < 5; probe++) {
        const at = performance.now()
        const health = await fetch(`${flooded.url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
          (response) => `${response.status}`,
          (error: unknown) => String(error)
        )
        slowest = Math.max(slowest, performance.now() - at)
        if (health !== "200") failures.push(`/health: ${health}`)
        const chat = await fetch(`${flooded.url}/api/v1/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", ...bearer(flooded.key) },
          body: JSON.stringify(chatBody()),
          signal: AbortSignal.timeout(5_000)
        }).then((response) => `${response.status}`, (error: unknown) => String(error))
        if (chat !== "200") failures.push(`chat: ${chat}`)
        await new Promise((resolve) => setTimeout(resolve, 300))
      }
      record(task, `${idle} idle connections, fd limit ${FILE_LIMIT}`, {
        slowestHealth: ms(slowest),
        failedProbes: failures.length
      })
      expect(failures).toEqual([])
    } finally {
      for (const socket of sockets) socket.destroy()
    }
  }, 180_000)
})
