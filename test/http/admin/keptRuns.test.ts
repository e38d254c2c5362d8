import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { drain, finishOf, readAll, readUntil, startChat, story, textOf } from "../../support/keptRuns.ts"
import { ADMIN_TOKEN, type AdminWorld, expectError, startAdminWorld, within } from "./adminClient.ts"

/**
 * A key's resumable runs on /admin/v1 (docs/DESIGN.md §6, §16): its account
 * holder and the operator list them, stop one and replay its stream; another
 * account gets 404, as for the key itself.
 */
let world: AdminWorld
let key: { readonly id: string; readonly secret: string }

beforeAll(async () => {
  world = await startAdminWorld({ streams: { retentionMs: 60_000, maxBytes: 64 * 1024 } })
  const created = await world.call("a", "POST", "/admin/v1/keys", {
    body: { name: "ana-bot", allowedModels: ["test/m1"], allowedTools: [] }
  })
  key = { id: created.body.data.key.id, secret: created.body.data.secret }
}, 60_000)
afterAll(() => world.gateway.close())

const runsOf = async (caller: "a" | "operator") =>
  (await world.call(caller, "GET", `/admin/v1/keys/${key.id}/runs`)).body.data.runs

const streamAs = (headers: Record<string, string>, chatId: string) =>
  fetch(`${world.gateway.url}/admin/v1/keys/${key.id}/runs/${chatId}/stream`, { headers })

describe("a key's resumable runs in the admin API", () => {
  it("lists a running run, stops it wherever it runs, and then lists it stopped", async () => {
    world.gateway.upstream.enqueue(story(400, 50))
    const { reader } = await readUntil(await startChat(world.gateway.url, key.secret, "chat-admin"), "word1")
    const [running] = await runsOf("a")
    expect(running).toEqual({
      id: "chat-admin",
      protocol: "ui",
      status: "running",
      cut: false,
      startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      endedAt: null
    })
    expect(await runsOf("operator")).toEqual([running])

    // The replay follows it live, from the start, as the resume route does.
    const followed = await streamAs({ cookie: world.sessions.a.cookie }, "chat-admin")
    expect(followed.status).toBe(200)
    expect(followed.headers.get("content-type")).toBe("text/event-stream")
    expect(followed.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1")

    const askedAt = Date.now()
    const stopped = await world.call("a", "POST", `/admin/v1/keys/${key.id}/runs/chat-admin/stop`)
    expect(stopped.body.data).toEqual({ id: "chat-admin", status: "stopping" })
    await drain(reader)
    expect(Date.now() - askedAt).toBeLessThan(1_000)
    const whole = await readAll(followed)
    expect(whole.startsWith("data: {\"type\":\"start\"")).toBe(true)
    expect(finishOf(whole).messageMetadata).toMatchObject({ finished: false, finishReason: "stopped" })
    expect(await within(2_000, async () => (await runsOf("a"))[0]?.status === "stopped")).toBe(true)
    expect((await runsOf("a"))[0].endedAt).toEqual(expect.stringMatching(/^\d{4}-/))
    const again = await world.call("operator", "POST", `/admin/v1/keys/${key.id}/runs/chat-admin/stop`)
    expect(again.body.data).toEqual({ id: "chat-admin", status: "ended" })
  })

  it("lists a run that finished on its own as ended, newest first, and replays it whole", async () => {
    world.gateway.upstream.enqueue(story(5, 0))
    const original = await readAll(await startChat(world.gateway.url, key.secret, "chat-done"))
    const runs = await runsOf("a")
    expect(runs.map((run: { id: string }) => run.id)).toEqual(["chat-done", "chat-admin"])
    expect(runs[0]).toMatchObject({ status: "ended", cut: false })
    const replay = await streamAs({ authorization: `Bearer ${ADMIN_TOKEN}` }, "chat-done")
    expect(await readAll(replay)).toBe(original)
    expect(textOf(original)).toBe(story(5, 0).text)
    const one = await world.call("a", "GET", `/admin/v1/keys/${key.id}/runs?limit=1`)
    expect(one.body.data.runs.map((run: { id: string }) => run.id)).toEqual(["chat-done"])
  })

  it("hides the runs from another account (404), and refuses a bad limit (400)", async () => {
    world.gateway.upstream.enqueue(story(400, 50))
    const { reader } = await readUntil(await startChat(world.gateway.url, key.secret, "chat-hidden"), "word1")
    expectError(await world.call("b", "GET", `/admin/v1/keys/${key.id}/runs`), 404, "NotFound")
    expectError(await world.call("b", "POST", `/admin/v1/keys/${key.id}/runs/chat-hidden/stop`), 404, "NotFound")
    expect((await streamAs({ cookie: world.sessions.b.cookie }, "chat-hidden")).status).toBe(404)
    // Another key of the same account does not name the run either.
    const mine = await world.call("a", "POST", "/admin/v1/keys", {
      body: { name: "ana-other", allowedModels: ["test/m1"], allowedTools: [] }
    })
    const otherKey = mine.body.data.key.id
    expectError(await world.call("a", "POST", `/admin/v1/keys/${otherKey}/runs/chat-hidden/stop`), 404, "NotFound")
    expect((await world.call("a", "GET", `/admin/v1/keys/${otherKey}/runs`)).body.data.runs).toEqual([])
    expectError(await world.call("a", "POST", `/admin/v1/keys/${key.id}/runs/never/stop`), 404, "NotFound")
    for (const limit of ["0", "201", "x"]) {
      expectError(await world.call("a", "GET", `/admin/v1/keys/${key.id}/runs?limit=${limit}`), 400, "BadRequest")
    }
    expect((await runsOf("a")).find((run: { id: string }) => run.id === "chat-hidden").status).toBe("running")
    await world.call("a", "POST", `/admin/v1/keys/${key.id}/runs/chat-hidden/stop`)
    await drain(reader)
  })
})
