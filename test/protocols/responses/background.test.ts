import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { story } from "../../support/keptRuns.ts"
import { openAiClient } from "../../support/openaiTools.ts"

/** Background responses on one instance over SQLite (docs/DESIGN.md §14, §16), through the openai SDK. */
let gateway: TestGateway
let client: OpenAI
let other: OpenAI

beforeAll(async () => {
  gateway = await startGateway()
  client = openAiClient(gateway, (await gateway.createKey()).secret)
  other = openAiClient(gateway, (await gateway.createKey()).secret)
})
afterAll(() => gateway?.close())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Event = OpenAI.Responses.ResponseStreamEvent

const until = async (id: string, done: (response: OpenAI.Responses.Response) => boolean) => {
  for (let i = 0; i < 200; i++) {
    const response = await client.responses.retrieve(id)
    if (done(response)) return response
    await sleep(50)
  }
  throw new Error(`response ${id} never got there`)
}

const collect = async (stream: AsyncIterable<Event>) => {
  const events: Array<Event> = []
  for await (const event of stream) events.push(event)
  return events
}

describe("background responses (issue 23 part 5)", () => {
  it("answers at once queued; retrieve shows it running, then the whole completed response", async () => {
    gateway.upstream.enqueue(story(20, 30))
    const queued = await client.responses.create({ model: "test/m1", input: "Tell", background: true })
    expect(queued).toMatchObject({ status: "queued", background: true, store: true, output: [] })
    expect((await client.responses.retrieve(queued.id)).status).toMatch(/^(queued|in_progress)$/)
    const completed = await until(queued.id, (response) => response.status === "completed")
    expect(completed).toMatchObject({ id: queued.id, background: true, output_text: story(20, 0).text })
    expect(completed.usage).not.toBeNull()
  })

  it("replays exactly the events after starting_after, and the whole stream without it", async () => {
    gateway.upstream.enqueue(story(10, 20))
    const queued = await client.responses.create({ model: "test/m1", input: "Tell", background: true })
    const all = await collect(await client.responses.retrieve(queued.id, { stream: true }))
    expect(all.map((event) => event.sequence_number)).toEqual(all.map((_, index) => index))
    expect(all[0]!.type).toBe("response.created")
    expect(all.at(-1)!.type).toBe("response.completed")
    const after = await collect(await client.responses.retrieve(queued.id, { stream: true, starting_after: 4 }))
    expect(after).toEqual(all.slice(5))
  })

  it("cancel stops the run mid-way (the upstream call aborted): status cancelled", async () => {
    gateway.upstream.enqueue(story(400, 50))
    const queued = await client.responses.create({ model: "test/m1", input: "Long", background: true })
    await until(queued.id, () => gateway.upstream.requests.length > 0)
    await sleep(200)
    const cancelled = await client.responses.cancel(queued.id)
    expect(cancelled).toMatchObject({ id: queued.id, status: "cancelled", background: true })
    await gateway.upstream.waitForAbort(1_000)
    expect((await client.responses.retrieve(queued.id)).status).toBe("cancelled")
    // Cancelling a finished one answers it as it ended.
    expect((await client.responses.cancel(queued.id)).status).toBe("cancelled")
  })

  it("a streamed background request whose client leaves still completes", async () => {
    gateway.upstream.enqueue(story(30, 30))
    const stream = await client.responses.create({ model: "test/m1", input: "Go", background: true, stream: true })
    let id = ""
    for await (const event of stream) {
      if (event.type === "response.created") {
        expect(event.response).toMatchObject({ background: true })
        id = event.response.id
      }
      if (event.type === "response.output_text.delta") break
    }
    const completed = await until(id, (response) => response.status === "completed")
    expect(completed.output_text).toBe(story(30, 0).text)
    expect(gateway.upstream.requests.at(-1)!.aborted).toBe(false)
  })

  it("a run that fails before its stream began, answered queued already, reads failed with the reason", async () => {
    gateway.upstream.enqueue({ type: "error", status: 400, body: { error: { message: "bad things" } } })
    const queued = await client.responses.create({ model: "test/m1", input: "Fail", background: true })
    expect(queued.status).toBe("queued")
    const failed = await until(queued.id, (response) => response.status === "failed")
    expect(failed.error).toMatchObject({ code: "server_error" })
    expect(failed.error!.message).not.toMatch(/instance that ran it stopped/)
  })

  it("another key gets 404 for retrieve, stream and cancel", async () => {
    gateway.upstream.enqueue(story(5, 0))
    const queued = await client.responses.create({ model: "test/m1", input: "Mine", background: true })
    await expect(other.responses.retrieve(queued.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    await expect(other.responses.retrieve(queued.id, { stream: true })).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    await expect(other.responses.cancel(queued.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    await until(queued.id, (response) => response.status === "completed")
  })

  it("refuses background with store: false, and cancelling a response that is not a background one, 400", async () => {
    await expect(client.responses.create({ model: "test/m1", input: "x", background: true, store: false }))
      .rejects.toMatchObject({ status: 400, error: { param: "background" } })
    gateway.upstream.enqueue({ type: "text", text: "now" })
    const done = await client.responses.create({ model: "test/m1", input: "x" })
    await expect(client.responses.cancel(done.id)).rejects.toMatchObject({ status: 400 })
    await expect(client.responses.retrieve(done.id, { stream: true })).rejects.toMatchObject({ status: 400 })
  })
})
