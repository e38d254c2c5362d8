import { createServer, type Server } from "node:http"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { capConnections } from "../../src/app/connectionCap.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

const FLOOD = 2_000
const HEADERS_TIMEOUT_MS = 1_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A connection that sends half a request head and then nothing; it records how the server let it go. */
const idleConnection = (port: number) => {
  const socket: Socket = connect(port, "127.0.0.1")
  const state = { socket, connected: false, closed: false, answered: "" }
  socket.on("error", () => undefined)
  socket.on("data", (chunk) => (state.answered += chunk.toString()))
  socket.on("close", () => (state.closed = true))
  socket.on("connect", () => {
    state.connected = true
    socket.write("GET /health HTTP/1.1\r\nhost: gateway\r\n")
  })
  return state
}

const openFlood = async (port: number) => {
  const flood = Array.from({ length: FLOOD }, () => idleConnection(port))
  while (flood.some((connection) => !connection.connected && !connection.closed)) await sleep(20)
  return flood
}

const until = async (condition: () => boolean) => {
  while (!condition()) await sleep(20)
}

const stillOpen = (flood: ReadonlyArray<{ closed: boolean }>) => flood.filter((connection) => !connection.closed).length

describe("capConnections", () => {
  const CAP = 100
  let server: Server
  let accepted = 0

  beforeAll(async () => {
    server = createServer((_req, res) => res.end("ok"))
    const spoke = capConnections(server, CAP)
    server.on("request", (_req, res) => spoke(res))
    server.on("connection", () => accepted++)
    await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: FLOOD }, resolve))
  })
  afterAll(() => {
    server.closeAllConnections()
    return new Promise((resolve) => server.close(resolve))
  })

  it("holds at most the cap; a new connection takes the place of the oldest that sent no request head", async () => {
    const port = (server.address() as { port: number }).port
    const flood = await openFlood(port)
    await until(() => accepted === FLOOD)
    await sleep(100)
    const held = await new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count)))
    )
    expect(held).toBe(CAP)
    expect(stillOpen(flood)).toBe(CAP)
    // The others were let go at once, without an answer (the headers timeout is Node's 60 s here).
    expect(flood.filter((connection) => connection.closed && connection.answered === "")).toHaveLength(FLOOD - CAP)

    const answer = await fetch(`http://127.0.0.1:${port}/`)
    expect(await answer.text()).toBe("ok")
    for (const connection of flood) connection.socket.destroy()
  }, 20_000)
})

describe("capConnections with kept-alive connections", () => {
  let server: Server
  let release = () => {}

  beforeAll(async () => {
    // Node would close an idle connection itself after 5 s; here only the cap may.
    server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      if (req.url === "/hold") release = () => res.end("held")
      else res.end("ok")
    })
    const spoke = capConnections(server, 3)
    server.on("request", (_req, res) => spoke(res))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  })
  afterAll(() => {
    server.closeAllConnections()
    return new Promise((resolve) => server.close(resolve))
  })

  /** A connection that sends `path` (or nothing) and records its answer. */
  const client = async (path?: string) => {
    const port = (server.address() as { port: number }).port
    const state = { socket: connect(port, "127.0.0.1"), answered: "", closed: false }
    state.socket.on("error", () => undefined)
    state.socket.on("data", (chunk) => (state.answered += chunk.toString()))
    state.socket.on("close", () => (state.closed = true))
    await new Promise((resolve) => state.socket.once("connect", resolve))
    if (path !== undefined) state.socket.write(`GET ${path} HTTP/1.1\r\nhost: gateway\r\n\r\n`)
    return state
  }

  it("lets a silent connection go first, then the one idle between requests, never one with a request under way", async () => {
    const idle = await client("/")
    await until(() => idle.answered.endsWith("ok"))
    const busy = await client("/hold")
    const silent = await client()
    await sleep(100)

    const fourth = await client("/")
    await until(() => silent.closed)
    expect(idle.closed).toBe(false)
    await until(() => fourth.answered.endsWith("ok"))

    const fifth = await client()
    await until(() => idle.closed)
    expect(busy.closed).toBe(false)
    expect(fourth.closed).toBe(false)
    release()
    await until(() => busy.answered.endsWith("held"))
    for (const connection of [busy, fourth, fifth]) connection.socket.destroy()
  })
})

describe("the gateway under a flood of idle, half-sent connections", () => {
  let gateway: TestGateway
  let secret: string

  beforeAll(async () => {
    gateway = await startGateway({
      connections: { maxConnections: 300, headersTimeoutMs: HEADERS_TIMEOUT_MS, keepAliveTimeoutMs: 75_000 }
    })
    secret = (await gateway.createKey()).secret
  })
  afterAll(() => gateway.close())

  it("still answers /health and a chat, and lets the idle ones go after the headers timeout", async () => {
    const flood = await openFlood(Number(new URL(gateway.url).port))

    const health = await fetch(`${gateway.url}/health`)
    expect(health.status).toBe(200)
    gateway.upstream.enqueue({ type: "text", text: "served during the flood" })
    const chat = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
    expect(chat.status).toBe(200)
    expect(JSON.stringify(await chat.json())).toContain("served during the flood")

    const deadline = Date.now() + 10_000
    while (stillOpen(flood) > 0 && Date.now() < deadline) await sleep(50)
    expect(stillOpen(flood)).toBe(0)
    // Those the cap did not displace were told why.
    expect(flood.some((connection) => connection.answered.startsWith("HTTP/1.1 408"))).toBe(true)
  }, 30_000)
})
