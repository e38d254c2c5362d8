import { it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { connect, createServer, type Server, type Socket } from "node:net"
import { expect } from "vitest"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import * as Database from "../../src/store/Database.ts"
import { describePostgres, postgresUrl } from "../store/postgres.ts"
import type { TestGateway } from "../support/gateway.ts"
import {
  admin,
  closeAll,
  inFreshSchema,
  KEPT_MS,
  models,
  refusedEverywhere,
  startInstances,
  timeUntil
} from "./instances.ts"

/**
 * Several instances on one Postgres (docs/DESIGN.md §8 "Many instances"):
 * key and account changes made through one reach the others within 1 s by
 * LISTEN/NOTIFY. The instances' key caches are kept 5 s here, so nothing but
 * a notification can make a change land within 1 s.
 */

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
