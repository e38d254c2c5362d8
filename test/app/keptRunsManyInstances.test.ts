import { it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { drain, finishOf, readAll, readUntil, resume, startChat, stopRun, story, textOf } from "../support/keptRuns.ts"

/**
 * docs/DESIGN.md §16 across instances: a run started on one of three, its
 * client gone, is resumed from another and stopped from a third, on Postgres
 * alone (streams in the database, stops over LISTEN/NOTIFY) and with Redis
 * (streams in Redis).
 */
const startThree = async (databaseUrl: string, redis?: string) => {
  const gateways: Array<TestGateway> = []
  for (let i = 0; i < 3; i++) {
    gateways.push(
      await startGateway({
        databaseUrl,
        config: {
          adminToken: Redacted.make(ADMIN_TOKEN),
          ...(redis === undefined ? {} : { redisUrl: Redacted.make(redis) })
        }
      })
    )
  }
  return gateways
}

const acrossInstances = async (gateways: ReadonlyArray<TestGateway>) => {
  const [a, b, c] = gateways as [TestGateway, TestGateway, TestGateway]
  try {
    const key = await a.createKey()
    const other = await a.createKey()

    // Started on A, its client gone; resumed from B, whole and once.
    const leftId = `chat-${randomUUID()}`
    a.upstream.enqueue(story(30, 30))
    const leaving = new AbortController()
    const first = await startChat(a.url, key.secret, leftId, undefined, leaving.signal)
    await readUntil(first, "word2")
    leaving.abort()
    const resumed = await resume(b.url, key.secret, leftId)
    expect(resumed.status).toBe(200)
    const whole = await readAll(resumed)
    expect(textOf(whole)).toBe(story(30, 0).text)
    expect(finishOf(whole).finishReason).toBe("stop")
    expect(a.upstream.requests.at(-1)!.aborted).toBe(false)

    // Another key, at any instance: 404.
    expect((await resume(c.url, other.secret, leftId)).status).toBe(404)
    expect((await stopRun(b.url, other.secret, leftId)).status).toBe(404)

    // Started on A, followed from B, stopped from C: within a second, with the reason stopped.
    const stopId = `chat-${randomUUID()}`
    a.upstream.enqueue(story(400, 50))
    const running = await startChat(a.url, key.secret, stopId)
    const { reader } = await readUntil(running, "word1")
    const follower = await resume(b.url, key.secret, stopId)
    const askedAt = Date.now()
    expect((await stopRun(c.url, key.secret, stopId)).status).toBe(202)
    await drain(reader)
    expect(Date.now() - askedAt).toBeLessThan(1_000)
    const followed = await readAll(follower)
    expect(Date.now() - askedAt).toBeLessThan(1_500)
    expect(finishOf(followed).messageMetadata).toMatchObject({ finished: false, finishReason: "stopped" })
    await a.upstream.waitForAbort(1_000)
    const [row] = await a.ledgerRows({ keyId: key.id, limit: 1 })
    expect(row).toMatchObject({ outcome: "stopped", finishReason: "stopped" })
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.close()))
  }
}

const ADMIN_TOKEN = "op-token-kept-runs-4e1f"

const admin = async (gateway: TestGateway, method: string, path: string) => {
  const response = await fetch(`${gateway.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` }
  })
  expect(response.status).toBe(200)
  return (await response.json()).data
}

// The console's view (docs/DESIGN.md §6): a run on A listed from B and stopped from C through the admin API.
const consoleAcrossInstances = async (gateways: ReadonlyArray<TestGateway>) => {
  const [a, b, c] = gateways as [TestGateway, TestGateway, TestGateway]
  try {
    const key = await a.createKey()
    const chatId = `chat-${randomUUID()}`
    a.upstream.enqueue(story(400, 50))
    const { reader } = await readUntil(await startChat(a.url, key.secret, chatId), "word1")
    const listed = await admin(b, "GET", `/keys/${key.id}/runs`)
    expect(listed.runs).toEqual([expect.objectContaining({ id: chatId, status: "running", endedAt: null })])
    const askedAt = Date.now()
    expect(await admin(c, "POST", `/keys/${key.id}/runs/${chatId}/stop`)).toEqual({ id: chatId, status: "stopping" })
    await drain(reader)
    expect(Date.now() - askedAt).toBeLessThan(1_000)
    await a.upstream.waitForAbort(1_000)
    // Its end is kept just after its client's stream ended.
    await expect.poll(async () => (await admin(b, "GET", `/keys/${key.id}/runs`)).runs, { timeout: 2_000 })
      .toEqual([expect.objectContaining({ id: chatId, status: "stopped", cut: false })])
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.close()))
  }
}

describePostgres("resumable runs on three instances", () => {
  it.live(
    "sharing Postgres alone",
    () =>
      withFreshSchema((schema) => Effect.promise(async () => acrossInstances(await startThree(urlWithSchema(schema))))),
    60_000
  )

  it.live(
    "the admin API's list and stop, from other instances, on Postgres alone",
    () =>
      withFreshSchema((schema) =>
        Effect.promise(async () => consoleAcrossInstances(await startThree(urlWithSchema(schema))))
      ),
    60_000
  )

  describeRedis("and Redis", () => {
    it.live(
      "the admin API's list and stop, from other instances, on Postgres and Redis",
      () =>
        withFreshSchema((schema) =>
          Effect.promise(async () => consoleAcrossInstances(await startThree(urlWithSchema(schema), redisUrl)))
        ),
      60_000
    )

    it.live(
      "sharing Postgres and Redis",
      () =>
        withFreshSchema((schema) =>
          Effect.promise(async () => acrossInstances(await startThree(urlWithSchema(schema), redisUrl)))
        ),
      60_000
    )
  })
})
