import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { drain, finishOf, readAll, readUntil, resume, startChat, stopRun, story, textOf } from "../support/keptRuns.ts"
import { describeThreeInstances } from "./threeInstances.ts"

/**
 * docs/DESIGN.md §16 across instances: a run started on one of three, its
 * client gone, is resumed from another and stopped from a third, on Postgres
 * alone (streams in the database, stops over LISTEN/NOTIFY) and with Redis
 * (streams in Redis).
 */
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

describeThreeInstances("resumable runs on three instances", acrossInstances)
