import { it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { connect, createServer, type Server, type Socket } from "node:net"
import { expect } from "vitest"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import * as Database from "../../src/store/Database.ts"
import { describePostgres, postgresUrl, urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"

/**
 * Several instances on one Postgres (docs/DESIGN.md §8 "Many instances"):
 * key and account changes made through one reach the others within 1 s by
 * LISTEN/NOTIFY. The instances' key caches are kept 5 s here, so nothing but
 * a notification can make a change land within 1 s.
 */
const ADMIN_TOKEN = "op-token-many-instances-5d2e"
const KEPT_MS = 5_000

const admin = async (gateway: TestGateway, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${gateway.url}/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return (await response.json()).data
}

/** The model ids the key sees at this instance, or the status when refused. */
const models = async (gateway: TestGateway, secret: string): Promise<ReadonlyArray<string> | number> => {
  const response = await fetch(`${gateway.url}/api/v1/models`, { headers: { authorization: `Bearer ${secret}` } })
  if (response.status !== 200) return response.status
  return (await response.json()).data.models.map((model: { id: string }) => model.id)
}

/** Milliseconds until `check` holds, polling; undefined past the deadline. */
const timeUntil = async (deadlineMs: number, check: () => Promise<boolean>): Promise<number | undefined> => {
  const start = Date.now()
  while (Date.now() - start < deadlineMs) {
    if (await check()) return Date.now() - start
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return undefined
}

const refusedEverywhere = (gateways: ReadonlyArray<TestGateway>, secret: string) => async () =>
  (await Promise.all(gateways.map((gateway) => models(gateway, secret)))).every((answer) => answer === 401)

/** Instances one after the other (each migrates the schema first), all with the same settings. */
const startInstances = async (urls: ReadonlyArray<string>, keyCacheTtlMs = KEPT_MS) => {
  const gateways: Array<TestGateway> = []
  for (const databaseUrl of urls) {
    gateways.push(
      await startGateway({ databaseUrl, config: { adminToken: Redacted.make(ADMIN_TOKEN), keyCacheTtlMs } })
    )
  }
  return gateways
}

const closeAll = (gateways: ReadonlyArray<TestGateway>) => Promise.all(gateways.map((gateway) => gateway.close()))

/** Within a fresh schema: `use` gets the schema's URL and a client of the test database. */
const inFreshSchema = (use: (url: string, schema: string, sql: SqlClient.SqlClient) => Promise<void>) =>
  withFreshSchema((schema) =>
    Effect.flatMap(
      Effect.service(SqlClient.SqlClient),
      (sql) => Effect.promise(() => use(urlWithSchema(schema), schema, sql))
    )
  )

/** The backends of this schema's instances that hold a LISTEN. */
const listeners = (sql: SqlClient.SqlClient, schema: string) =>
  Effect.runPromise(
    sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE query LIKE ${`LISTEN %parley.${schema}%`}`.pipe(
      Effect.map((rows) => rows.map((row) => row.pid).sort())
    )
  )

interface Relay {
  /** `url` through the relay. */
  readonly through: (url: string) => string
  /** From now on LISTEN passes. */
  readonly allowListen: () => void
  readonly close: () => Promise<void>
}

/**
 * A TCP relay to Postgres that cuts every connection that sends `LISTEN`
 * until `allowListen`: the instance behind it queries normally but hears no
 * notification.
 */
const relayWithoutListen = async (): Promise<Relay> => {
  const target = new URL(postgresUrl)
  const sockets = new Set<Socket>()
  let blocking = true
  const server: Server = createServer((client) => {
    const backend = connect(Number(target.port || 5432), target.hostname)
    sockets.add(client).add(backend)
    const cut = () => {
      client.destroy()
      backend.destroy()
    }
    client.on("data", (chunk: Buffer) => blocking && chunk.includes("LISTEN ") ? cut() : backend.write(chunk))
    backend.on("data", (chunk: Buffer) => client.write(chunk))
    client.on("close", cut).on("error", cut)
    backend.on("close", cut).on("error", cut)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("expected a TCP address")
  return {
    through: (url) => {
      const relayed = new URL(url)
      relayed.host = `127.0.0.1:${address.port}`
      return relayed.toString()
    },
    allowListen: () => {
      blocking = false
    },
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

describePostgres("many instances on one Postgres", () => {
  it.live("a key narrowed or revoked through one instance, or by the CLI, is so at the others within 1 s", () =>
    inFreshSchema(async (url) => {
      const gateways = await startInstances([url, url, url])
      try {
        const [first, ...others] = gateways as [TestGateway, TestGateway, TestGateway]
        const created = await admin(first, "POST", "/keys", {
          name: "shared",
          allowedModels: ["test/m1"],
          allowedTools: []
        })
        const secret: string = created.secret
        for (const gateway of gateways) expect(await models(gateway, secret)).toEqual(["test/m1"])

        await admin(first, "PATCH", `/keys/${created.key.id}`, { allowedModels: ["test/m1", "test/m2"] })
        const widened = await timeUntil(
          KEPT_MS,
          async () =>
            (await Promise.all(others.map((gateway) => models(gateway, secret)))).every((answer) =>
              Array.isArray(answer) && answer.length === 2
            )
        )
        expect(widened).toBeLessThan(1_000)

        await admin(first, "POST", `/keys/${created.key.id}/revoke`)
        expect(await models(first, secret)).toBe(401)
        expect(await timeUntil(KEPT_MS, refusedEverywhere(others, secret))).toBeLessThan(1_000)

        // The CLI's services (announcing, not listening), as `parley keys revoke` builds them.
        const cli = ManagedRuntime.make(ApiKeys.layer.pipe(Layer.provide(Database.layerFromUrl(url))))
        try {
          const other = await first.createKey()
          for (const gateway of gateways) expect(await models(gateway, other.secret)).toEqual(["test/m1", "test/m2"])
          await cli.runPromise(
            Effect.flatMap(Effect.service(ApiKeys), (keys) => Effect.orDie(keys.setStatus(other.id, "revoked")))
          )
          expect(await timeUntil(KEPT_MS, refusedEverywhere(gateways, other.secret))).toBeLessThan(1_000)
        } finally {
          await cli.dispose()
        }
      } finally {
        await closeAll(gateways)
      }
    }))

  it.live("an account disabled through one instance stops its keys at the others within 1 s", () =>
    inFreshSchema(async (url) => {
      const gateways = await startInstances([url, url, url])
      try {
        const [first, ...others] = gateways as [TestGateway, TestGateway, TestGateway]
        const account = await admin(first, "POST", "/accounts", {
          name: "Ana",
          email: "ana@example.com",
          allowedModels: ["*"],
          allowedTools: ["*"]
        })
        const accountId: string = account.account?.id ?? account.id
        const created = await admin(first, "POST", "/keys", {
          name: "ana's",
          allowedModels: ["*"],
          allowedTools: [],
          accountId
        })
        for (const gateway of gateways) expect(await models(gateway, created.secret)).toEqual(["test/m1", "test/m2"])

        await admin(first, "PATCH", `/accounts/${accountId}`, { allowedModels: ["test/m2"] })
        const narrowed = await timeUntil(
          KEPT_MS,
          async () =>
            (await Promise.all(others.map((gateway) => models(gateway, created.secret)))).every((answer) =>
              Array.isArray(answer) && answer.join() === "test/m2"
            )
        )
        expect(narrowed).toBeLessThan(1_000)

        await admin(first, "PATCH", `/accounts/${accountId}`, { status: "disabled" })
        expect(await timeUntil(KEPT_MS, refusedEverywhere(gateways, created.secret))).toBeLessThan(1_000)
      } finally {
        await closeAll(gateways)
      }
    }))

  it.live("the listener comes back after its connection is killed, and changes propagate again", () =>
    inFreshSchema(async (url, schema, sql) => {
      const gateways = await startInstances([url, url, url])
      try {
        const [first, ...others] = gateways as [TestGateway, TestGateway, TestGateway]
        const before = await listeners(sql, schema)
        expect(before).toHaveLength(3)
        await Effect.runPromise(
          sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN ${sql.in(before)}`
        )
        const back = await timeUntil(KEPT_MS, async () => {
          const now = await listeners(sql, schema)
          return now.length === 3 && now.every((pid) => !before.includes(pid))
        })
        expect(back).toBeDefined()

        const { secret, id } = await first.createKey()
        for (const gateway of gateways) expect(await models(gateway, secret)).toEqual(["test/m1", "test/m2"])
        await admin(first, "POST", `/keys/${id}/revoke`)
        expect(await timeUntil(KEPT_MS, refusedEverywhere(others, secret))).toBeLessThan(1_000)
      } finally {
        await closeAll(gateways)
      }
    }))

  it.live("an instance that cannot LISTEN still sees changes when its cache entries expire", () =>
    inFreshSchema(async (url) => {
      const relay = await relayWithoutListen()
      const kept = 1_500
      const gateways = await startInstances([url, relay.through(url)], kept)
      try {
        const [first, deaf] = gateways as [TestGateway, TestGateway]
        const { secret, id } = await first.createKey()
        expect(await models(deaf, secret)).toEqual(["test/m1", "test/m2"])
        const revokedAt = Date.now()
        await admin(first, "POST", `/keys/${id}/revoke`)
        // No notification reaches it: its cache still answers for a while…
        expect(await models(deaf, secret)).toEqual(["test/m1", "test/m2"])
        // …and no longer than the entry's TTL.
        expect(await timeUntil(kept + 1_000, refusedEverywhere([deaf], secret))).toBeDefined()
        expect(Date.now() - revokedAt).toBeLessThan(kept + 1_000)
      } finally {
        await closeAll(gateways)
        await relay.close()
      }
    }))

  it.live("an instance whose LISTEN returns drops what it cached meanwhile, as a notification may have been missed", () =>
    inFreshSchema(async (url, schema, sql) => {
      const relay = await relayWithoutListen()
      const gateways = await startInstances([url, relay.through(url)])
      try {
        const [first, deaf] = gateways as [TestGateway, TestGateway]
        const { secret, id } = await first.createKey()
        const cachedAt = Date.now()
        expect(await models(deaf, secret)).toEqual(["test/m1", "test/m2"])
        await admin(first, "POST", `/keys/${id}/revoke`)
        expect(await models(deaf, secret)).toEqual(["test/m1", "test/m2"])

        relay.allowListen()
        expect(await timeUntil(KEPT_MS, async () => (await listeners(sql, schema)).length === 2)).toBeDefined()
        expect(await timeUntil(500, refusedEverywhere([deaf], secret))).toBeDefined()
        // Well before its cache entry expires: the reconnect dropped it.
        expect(Date.now() - cachedAt).toBeLessThan(KEPT_MS)
      } finally {
        await closeAll(gateways)
        await relay.close()
      }
    }))
})
