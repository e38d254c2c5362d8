import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bearer } from "../../support/http.ts"
import { readAll, resume, startChat, story } from "../../support/keptRuns.ts"
import { ADMIN_TOKEN, type AdminWorld, startAdminWorld, within } from "./adminClient.ts"

/**
 * Every replay of a kept run is framed by the door that made it (issue 34 part 2, docs/DESIGN.md §16): the
 * resume route, a background response's `?stream=true`, and the admin API's replay (the console's) each send a
 * `ui` run as the AI SDK's UI message stream and a background response as the Responses events, with that
 * door's headers alone and its own ending for a stream cut at its bound.
 */
let world: AdminWorld
let key: { readonly id: string; readonly secret: string }

beforeAll(async () => {
  world = await startAdminWorld({ streams: { retentionMs: 60_000, maxBytes: 64 * 1024 } })
  const created = await world.call("a", "POST", "/admin/v1/keys", {
    body: { name: "replays", allowedModels: ["test/m1"], allowedTools: [] }
  })
  key = { id: created.body.data.key.id, secret: created.body.data.secret }
}, 60_000)
afterAll(() => world.gateway.close())

const adminReplay = (id: string) =>
  fetch(`${world.gateway.url}/admin/v1/keys/${key.id}/runs/${id}/stream`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` }
  })

const responseEvents = (id: string) =>
  fetch(`${world.gateway.url}/v1/responses/${id}?stream=true`, { headers: bearer(key.secret) })

// A background response, answered at once; its run goes on and keeps its events under its id.
const background = async (words: number) => {
  world.gateway.upstream.enqueue(story(words, 0))
  const accepted = await fetch(`${world.gateway.url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", ...bearer(key.secret) },
    body: JSON.stringify({ model: "test/m1", input: "Tell me a story", background: true })
  })
  expect(accepted.status).toBe(200)
  const { id } = await accepted.json() as { id: string }
  const ended = await within(10_000, async () => {
    const runs = (await world.call("a", "GET", `/admin/v1/keys/${key.id}/runs`)).body.data.runs
    return runs.some((run: { id: string; status: string }) => run.id === id && run.status !== "running")
  })
  expect(ended).toBe(true)
  return id
}

// What a replay's framing is: its status, content type and the headers that name a door's stream.
const framing = (response: Response) => ({
  status: response.status,
  contentType: response.headers.get("content-type"),
  uiStream: response.headers.get("x-vercel-ai-ui-message-stream")
})

describe("replays framed by the door that made the run", () => {
  it("a background response: the Responses events on every replay route, without the ui door's header", async () => {
    const id = await background(8)
    // Listed with the door that frames its replays.
    const runs = (await world.call("a", "GET", `/admin/v1/keys/${key.id}/runs`)).body.data.runs
    expect(runs.find((run: { id: string }) => run.id === id)).toMatchObject({ protocol: "responses", status: "ended" })
    const own = await responseEvents(id)
    const ownText = await readAll(own)
    expect(framing(own)).toEqual({ status: 200, contentType: "text/event-stream", uiStream: null })
    expect(ownText.startsWith("event: response.created\ndata: ")).toBe(true)
    expect(ownText).toContain("event: response.completed\n")

    const admin = await adminReplay(id)
    expect(framing(admin)).toEqual({ status: 200, contentType: "text/event-stream", uiStream: null })
    expect(await readAll(admin)).toBe(ownText)

    // The ui door's resume route, asked for the same key's response, replays it as what it is.
    const resumed = await resume(world.gateway.url, key.secret, id)
    expect(framing(resumed)).toEqual({ status: 200, contentType: "text/event-stream", uiStream: null })
    expect(await readAll(resumed)).toBe(ownText)
  })

  it("a ui run: the UI message stream with its header on the resume and admin routes; no response's events", async () => {
    world.gateway.upstream.enqueue(story(6, 0))
    const original = await readAll(await startChat(world.gateway.url, key.secret, "chat-replayed"))
    expect(original.startsWith("data: {\"type\":\"start\"")).toBe(true)

    const resumed = await resume(world.gateway.url, key.secret, "chat-replayed")
    expect(framing(resumed)).toEqual({ status: 200, contentType: "text/event-stream", uiStream: "v1" })
    expect(await readAll(resumed)).toBe(original)

    const admin = await adminReplay("chat-replayed")
    expect(framing(admin)).toEqual({ status: 200, contentType: "text/event-stream", uiStream: "v1" })
    expect(await readAll(admin)).toBe(original)

    // No stored response goes by the chat's id: the Responses door has nothing of it to stream.
    expect((await responseEvents("chat-replayed")).status).toBe(404)
  })

  it("a stream cut at its bound ends, on every route, in its own door's words", async () => {
    const id = await background(3_000)
    const runs = (await world.call("a", "GET", `/admin/v1/keys/${key.id}/runs`)).body.data.runs
    expect(runs.find((run: { id: string }) => run.id === id)).toMatchObject({ cut: true })
    for (
      const replay of [await adminReplay(id), await responseEvents(id), await resume(world.gateway.url, key.secret, id)]
    ) {
      expect(framing(replay).uiStream).toBeNull()
      const text = await readAll(replay)
      expect(text.startsWith("event: response.created\n")).toBe(true)
      // Its door's ending: an `error` event numbered after the last event written, then `[DONE]`.
      const events = text.split("\n\n").filter((event) => event !== "")
      expect(events.at(-1)).toBe("data: [DONE]")
      const cut = events.at(-2)!
      expect(cut.startsWith("event: error\ndata: ")).toBe(true)
      expect(cut).toContain(`"code":"stream_not_kept"`)
      const numbers = events.slice(0, -2).map((event) => Number(/"sequence_number":(\d+)\}$/.exec(event)![1]))
      expect(JSON.parse(cut.slice(cut.indexOf("data: ") + 6)).sequence_number).toBe(numbers.at(-1)! + 1)
      expect(text).not.toContain("data: {\"type\":\"finish\"")
    }

    world.gateway.upstream.enqueue(story(6_000, 0))
    await readAll(await startChat(world.gateway.url, key.secret, "chat-cut"))
    for (const replay of [await adminReplay("chat-cut"), await resume(world.gateway.url, key.secret, "chat-cut")]) {
      expect(framing(replay).uiStream).toBe("v1")
      const text = await readAll(replay)
      expect(text).toContain("\"errorText\":\"The rest of this answer was not kept")
      expect(text.endsWith("data: [DONE]\n\n")).toBe(true)
      expect(text).not.toContain("event: response.")
    }
  })
})
