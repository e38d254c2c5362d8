import { PgClient } from "@effect/sql-pg"
import { Context, Effect, ManagedRuntime, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { connect, createServer, type Server, type Socket } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { makeGateway } from "../../src/app/gateway.ts"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { ToolRegistry } from "../../src/tools/ToolRegistry.ts"
import { describePostgres, postgresUrl, uniqueSchema } from "../store/postgres.ts"
import { startGateway } from "../support/gateway.ts"
import { bearer, chatBody } from "../support/http.ts"

/** docs/DESIGN.md §8: `/health` says the process answers; `/ready` whether it should get traffic, and why not. */

/** A gateway of these settings, no provider unless given; its URL and a way to stop it. */
const launch = async (overrides: Partial<AppConfig["Service"]>) => {
  const runtime = ManagedRuntime.make(
    makeGateway({ config: AppConfig.layerTest(overrides), tools: ToolRegistry.layerTest([]), quiet: true })
  )
  const address = Context.get(await runtime.context(), HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, close: () => runtime.dispose() }
}

const ready = async (url: string) => {
  const response = await fetch(`${url}/ready`)
  return { status: response.status, body: await response.json() }
}

describe("/ready", () => {
  it("is 200 with a store, its migrations and a provider; /health too, both without a key", async () => {
    const gateway = await startGateway()
    try {
      expect(await ready(gateway.url)).toEqual({ status: 200, body: { status: "ready" } })
      expect((await fetch(`${gateway.url}/health`)).status).toBe(200)
    } finally {
      await gateway.close()
    }
  })

  it("is 503 naming the missing provider while /health stays 200", async () => {
    const gateway = await launch({})
    try {
      expect(await ready(gateway.url)).toEqual({
        status: 503,
        body: { reasons: ["providers: no model provider is configured"] }
      })
      expect((await fetch(`${gateway.url}/health`)).status).toBe(200)
    } finally {
      await gateway.close()
    }
  })

  it("is 503 while the server drains, on a connection that was busy, and that answer closes it", async () => {
    const gateway = await startGateway({ config: { operations: { shutdownGraceMs: 10_000, corsOrigins: [] } } })
    const { secret } = await gateway.createKey()
    // A stream of about 1.5 s keeps the connection busy through the start of the drain.
    gateway.upstream.enqueue({ type: "text", text: "word ".repeat(15), chunks: 15, chunkDelayMs: 100 })
    const socket = connect(Number(new URL(gateway.url).port), "127.0.0.1")
    let raw = ""
    socket.on("data", (data: Buffer) => (raw += data.toString("utf8")))
    const ended = new Promise((resolve) => socket.once("close", resolve))
    const body = JSON.stringify(chatBody({ stream: true }))
    socket.write(
      `POST /api/v1/chat HTTP/1.1\r\nHost: gateway\r\nAuthorization: ${bearer(secret).authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    )
    await new Promise((resolve) => setTimeout(resolve, 400))
    const closed = gateway.close()
    await new Promise((resolve) => setTimeout(resolve, 200))
    socket.write("GET /ready HTTP/1.1\r\nHost: gateway\r\n\r\n")
    await ended
    await closed
    const second = raw.slice(raw.lastIndexOf("HTTP/1.1 "))
    expect(raw.indexOf("HTTP/1.1 200")).toBe(0)
    expect(raw).toContain("data: [DONE]")
    expect(second).toMatch(/^HTTP\/1\.1 503/)
    expect(second.toLowerCase()).toContain("connection: close")
    expect(JSON.parse(second.slice(second.indexOf("\r\n\r\n") + 4))).toEqual({
      reasons: ["draining: the server is shutting down"]
    })
  })
})

/** A TCP relay to Postgres that can be cut, as a database that goes down. */
const relay = async (target: URL) => {
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.once("close", () => sockets.delete(socket))
      socket.on("error", () => socket.destroy())
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      })
  }
}

describePostgres("/ready on Postgres", () => {
  const schema = uniqueSchema()
  const admin = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(postgresUrl) }))
  afterAll(async () => {
    await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    await admin.dispose()
  })

  it("is 503 naming the store once the database stops answering", async () => {
    await admin.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE SCHEMA ${schema}`)))
    const target = new URL(postgresUrl)
    const cut = await relay(target)
    const url = new URL(postgresUrl)
    url.port = String(cut.port)
    url.hostname = "127.0.0.1"
    url.searchParams.set("options", `-c search_path=${schema}`)
    const gateway = await launch({
      databaseUrl: Redacted.make(url.toString()),
      providers: [{ id: "p", type: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", models: [] }]
    })
    try {
      // A provider with no models serves nothing: still not ready, for that reason alone.
      expect((await ready(gateway.url)).body.reasons).toEqual(["providers: no model provider is configured"])
      await cut.cut()
      const down = await ready(gateway.url)
      expect(down.status).toBe(503)
      expect(down.body.reasons).toHaveLength(2)
      expect(down.body.reasons[0]).toMatch(/^store: /)
      expect(JSON.stringify(down.body)).not.toContain(String(cut.port))
    } finally {
      await gateway.close()
    }
  }, 30_000)
})
