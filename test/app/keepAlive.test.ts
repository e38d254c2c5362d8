import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** One raw client connection: what it was sent, whether the server closed it, and when. */
const openConnection = async (port: number) => {
  const socket: Socket = connect(port, "127.0.0.1")
  const state = { socket, received: "", closedAt: 0 }
  socket.on("data", (chunk) => (state.received += chunk.toString()))
  socket.on("close", () => (state.closedAt = Date.now()))
  await new Promise((resolve) => socket.once("connect", resolve))
  return state
}

type Connection = Awaited<ReturnType<typeof openConnection>>

/** Sends `GET /health` on the connection and waits for its whole answer (the nth on it); answers its head. */
const askHealth = async (connection: Connection, nth: number) => {
  connection.socket.write("GET /health HTTP/1.1\r\nhost: gateway\r\n\r\n")
  const deadline = Date.now() + 5_000
  const answers = () => connection.received.split("HTTP/1.1 ").length - 1
  while (answers() < nth || !connection.received.endsWith("}")) {
    if (Date.now() > deadline || connection.closedAt > 0) throw new Error(`no answer ${nth}: ${connection.received}`)
    await sleep(10)
  }
  return connection.received.split("HTTP/1.1 ").at(-1)!.split("\r\n\r\n")[0]!
}

describe("the keep-alive timeout (PARLEY_KEEPALIVE_TIMEOUT)", () => {
  const KEEPALIVE_MS = 3_000
  let gateway: TestGateway
  let defaults: TestGateway

  beforeAll(async () => {
    // The headers timeout shorter than the wait between requests: an idle connection is not waiting for a head.
    gateway = await startGateway({
      connections: { maxConnections: undefined, headersTimeoutMs: 1_000, keepAliveTimeoutMs: KEEPALIVE_MS }
    })
    defaults = await startGateway()
  })
  afterAll(() => Promise.all([gateway.close(), defaults.close()]))

  it("keeps an idle connection open for the setting, says so, and closes it after", async () => {
    const connection = await openConnection(Number(new URL(gateway.url).port))
    const head = await askHealth(connection, 1)
    expect(head).toMatch(/^200 OK/)
    expect(head.toLowerCase()).toContain("keep-alive: timeout=3")

    // Still open two seconds on, twice the headers timeout; a second request on it is answered.
    await sleep(2_000)
    expect(connection.closedAt).toBe(0)
    expect(await askHealth(connection, 2)).toMatch(/^200 OK/)

    const secondAnswered = Date.now()
    // Node closes it a second (its keepAliveTimeoutBuffer) after the timeout it announced.
    while (connection.closedAt === 0 && Date.now() - secondAnswered < KEEPALIVE_MS + 3_000) await sleep(50)
    expect(connection.closedAt).toBeGreaterThan(0)
    expect(connection.closedAt - secondAnswered).toBeGreaterThanOrEqual(KEEPALIVE_MS - 100)
  }, 15_000)

  it("announces 75 seconds by default, longer than nginx keeps an idle upstream connection (60 s)", async () => {
    const connection = await openConnection(Number(new URL(defaults.url).port))
    expect((await askHealth(connection, 1)).toLowerCase()).toContain("keep-alive: timeout=75")
    connection.socket.destroy()
  })
})
