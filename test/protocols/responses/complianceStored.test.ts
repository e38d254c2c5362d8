import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { StoredResponses } from "../../../src/store/StoredResponses.ts"
import { bearer, postJson } from "../../support/http.ts"
import { story } from "../../support/keptRuns.ts"
import { gatewayWithKey } from "../../support/openaiTools.ts"
import { validAnswer, validStream } from "../../support/openResponses.ts"

/**
 * Stored and background responses against the Open Responses
 * specification's document (issue 34 part 4, docs/DESIGN.md §14):
 * `previous_response_id`, `GET /v1/responses/{id}` (also of a response
 * stored before parley answered every field the document requires), a
 * background response as it is accepted, runs, ends and is cancelled, and
 * its events replayed (`?stream=true`, `starting_after`, a replay whose
 * kept stream was cut).
 */
// A kept stream of a few kilobytes: a long background answer's is cut.
const at = gatewayWithKey({ config: { streams: { retentionMs: 600_000, maxBytes: 20_000 } } })

const post = (body: Record<string, unknown>) =>
  postJson(`${at.gateway.url}/v1/responses`, { model: "test/m1", ...body }, bearer(at.secret))

const get = (path: string) => fetch(`${at.gateway.url}/v1/responses/${path}`, { headers: bearer(at.secret) })
const upstream = () => at.gateway.upstream

const until = async (id: string, ended: (response: any) => boolean) => {
  for (let i = 0; i < 200; i++) {
    const response = await validAnswer(await get(id))
    if (ended(response)) return response
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`response ${id} never got there`)
}

describe("stored responses against the document (issue 34 part 4)", () => {
  it("previous_response_id, whole and streamed, and each retrieved as it was answered", async () => {
    upstream().enqueue({ type: "text", text: "Noted, Ada." })
    const first = await validAnswer(await post({ input: "My name is Ada." }))
    expect(first.store).toBe(true)

    upstream().enqueue({ type: "text", text: "Ada." })
    const second = await validAnswer(await post({ input: "What is my name?", previous_response_id: first.id }))
    expect(second.previous_response_id).toBe(first.id)
    expect(upstream().requests.at(-1)!.body.messages.map((each: any) => each.content)).toEqual(
      expect.arrayContaining(["My name is Ada.", "Noted, Ada.", "What is my name?"])
    )

    upstream().enqueue({ type: "text", text: "Still Ada." })
    const events = await validStream(await post({ input: "Again?", previous_response_id: second.id, stream: true }))
    const third = events.at(-1)!.response
    expect(third.previous_response_id).toBe(second.id)

    expect(await validAnswer(await get(first.id))).toEqual(first)
    expect(await validAnswer(await get(third.id))).toEqual(third)
  })

  it("a response stored before the document's fields were answered is retrieved with them", async () => {
    const id = "resp_0123456789abcdef0123456789abcdef"
    const key = await at.gateway.createKey()
    const older = {
      id,
      object: "response",
      created_at: 1_795_000_000,
      status: "completed",
      error: null,
      incomplete_details: null,
      model: "test/m1",
      output: [],
      service_tier: "default",
      usage: null,
      store: true,
      background: false,
      previous_response_id: null,
      instructions: null,
      max_output_tokens: null,
      metadata: {},
      parallel_tool_calls: true,
      reasoning: { effort: null, summary: null },
      temperature: null,
      text: { format: { type: "json_schema", name: "out", schema: { type: "object" } } },
      tool_choice: "auto",
      tools: [],
      top_p: 0.5,
      truncation: "disabled"
    }
    await Effect.runPromise(
      at.gateway.service(StoredResponses).put({ id, keyId: key.id, input: "[]", response: JSON.stringify(older) })
    )
    const retrieved = await validAnswer(
      await fetch(`${at.gateway.url}/v1/responses/${id}`, { headers: bearer(key.secret) })
    )
    expect(retrieved).toMatchObject({ id, completed_at: null, temperature: 1, top_p: 0.5, presence_penalty: 0 })
    expect(retrieved.text.format).toEqual({
      type: "json_schema",
      name: "out",
      description: null,
      schema: null,
      strict: false
    })
  })
})

describe("background responses against the document (issue 34 part 4)", () => {
  it("accepted queued, retrieved while it runs and once it ended, its events replayed whole and after N", async () => {
    upstream().enqueue(story(12, 20))
    const queued = await validAnswer(await post({ input: "Tell", background: true }))
    expect(queued).toMatchObject({ status: "queued", background: true, completed_at: null, output: [] })
    const running = await validAnswer(await get(queued.id))
    expect(running.status).toMatch(/^(queued|in_progress|completed)$/)
    const completed = await until(queued.id, (response) => response.status === "completed")
    expect(completed.completed_at).toEqual(expect.any(Number))

    const all = await validStream(await get(`${queued.id}?stream=true`))
    expect(all.at(-1)).toMatchObject({ type: "response.completed", response: completed })
    const after = await validStream(await get(`${queued.id}?stream=true&starting_after=3`), { firstSequence: 4 })
    expect(after).toEqual(all.slice(4))
  })

  it("streamed when asked: the same events as any stream's", async () => {
    upstream().enqueue(story(5, 0))
    const events = await validStream(await post({ input: "Go", background: true, stream: true }))
    expect(events[0]).toMatchObject({ type: "response.created", response: { background: true } })
    expect(events.at(-1)!.type).toBe("response.completed")
  })

  it("cancelled: the cancel's answer, the retrieved response and the stream's last event all say cancelled", async () => {
    upstream().enqueue(story(400, 50))
    const before = upstream().requests.length
    const queued = await validAnswer(await post({ input: "Long", background: true }))
    await until(queued.id, () => upstream().requests.length > before)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const cancelled = await validAnswer(
      await fetch(`${at.gateway.url}/v1/responses/${queued.id}/cancel`, { method: "POST", headers: bearer(at.secret) })
    )
    expect(cancelled).toMatchObject({ status: "cancelled", completed_at: null })
    expect(await validAnswer(await get(queued.id))).toEqual(cancelled)
    const events = await validStream(await get(`${queued.id}?stream=true`))
    expect(events.at(-1)).toMatchObject({ type: "response.incomplete", response: { status: "cancelled" } })
  })

  it("a replay whose kept stream was cut ends with the document's error event, then [DONE]", async () => {
    upstream().enqueue(story(300, 0))
    const queued = await validAnswer(await post({ input: "Long", background: true }))
    await until(queued.id, (response) => response.status === "completed")
    // Cut: no last response, an error event instead.
    const events = await validStream(await get(`${queued.id}?stream=true`), { ended: false })
    expect(events.at(-1)).toMatchObject({ type: "error", error: { type: "server_error", code: "stream_not_kept" } })
    expect(events.at(-2)!.type).toBe("response.output_text.delta")
    const after = await validStream(await get(`${queued.id}?stream=true&starting_after=2`), {
      firstSequence: 3,
      ended: false
    })
    expect(after.at(-1)).toEqual(events.at(-1))
  })
})
