import OpenAI from "openai"
import { expect } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { story } from "../support/keptRuns.ts"
import { openAiClient } from "../support/openaiTools.ts"
import { timeUntil } from "./instances.ts"
import { describeThreeInstances } from "./threeInstances.ts"

/**
 * Background responses across instances (docs/DESIGN.md §14, §16): created at
 * one of three, streamed from another and cancelled from a third, on Postgres
 * alone and with Redis; an instance that stops gracefully marks the
 * background run it could not finish `failed`, read from another.
 */
const GRACE_MS = 300

const acrossInstances = async (gateways: Array<TestGateway>) => {
  const [a, b, c] = gateways as [TestGateway, TestGateway, TestGateway]
  try {
    const { secret } = await a.createKey()
    const [atA, atB, atC] = [a, b, c].map((gateway) => openAiClient(gateway, secret)) as [OpenAI, OpenAI, OpenAI]

    // Created at A, streamed from B after sequence 3, cancelled from C: the upstream call at A aborted.
    a.upstream.enqueue(story(400, 50))
    const queued = await atA.responses.create({ model: "test/m1", input: "Long", background: true })
    const stream = await atB.responses.retrieve(queued.id, { stream: true, starting_after: 3 })
    const events: Array<OpenAI.Responses.ResponseStreamEvent> = []
    for await (const event of stream) {
      events.push(event)
      if (events.length === 3) {
        expect((await atC.responses.cancel(queued.id)).status).toBe("cancelled")
      }
    }
    expect(events[0]!.sequence_number).toBe(4)
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index + 4))
    expect(events.at(-1)).toMatchObject({ response: { status: "cancelled" } })
    await a.upstream.waitForAbort(1_000)
    expect((await atB.responses.retrieve(queued.id)).status).toBe("cancelled")

    // Another key, at any instance: 404.
    const other = openAiClient(c, (await a.createKey()).secret)
    await expect(other.responses.retrieve(queued.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)

    // A stops gracefully while its background run goes on: past the grace it is marked failed, read at B.
    a.upstream.enqueue(story(400, 50))
    const running = await atA.responses.create({ model: "test/m1", input: "Longer", background: true })
    expect(await timeUntil(5_000, async () => (await atB.responses.retrieve(running.id)).status === "in_progress"))
      .toBeDefined()
    await a.close()
    gateways.shift()
    const failed = await atB.responses.retrieve(running.id)
    expect(failed).toMatchObject({ status: "failed", error: { code: "server_error" } })
    expect(failed.error!.message).toMatch(/shutting down/i)
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.close()))
  }
}

describeThreeInstances("background responses on three instances", acrossInstances, {
  operations: { shutdownGraceMs: GRACE_MS, corsOrigins: [] }
})
