import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"
import { drain, finishOf, readAll, readUntil, resume, startChat, stopRun, story, textOf } from "../support/keptRuns.ts"

/** Resumable `ui` runs on one instance over SQLite (docs/DESIGN.md §16). */
let gateway: TestGateway
let key: { readonly id: string; readonly secret: string }
let other: { readonly id: string; readonly secret: string }

beforeAll(async () => {
  gateway = await startGateway({ config: { streams: { retentionMs: 300, maxBytes: 64 * 1024 } } })
  key = await gateway.createKey()
  other = await gateway.createKey()
})
afterAll(() => gateway?.close())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("resumable ui runs", () => {
  it("a resumed stream is byte for byte what the original client got", async () => {
    gateway.upstream.enqueue(story(20, 20))
    const original = await readAll(await startChat(gateway.url, key.secret, "chat-bytes"))
    const resumed = await resume(gateway.url, key.secret, "chat-bytes")
    expect(resumed.status).toBe(200)
    expect(resumed.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1")
    expect(await readAll(resumed)).toBe(original)
    expect(original.endsWith("data: [DONE]\n\n")).toBe(true)
  })

  it("goes on when its client leaves, and a resume replays it from the start and follows it live", async () => {
    gateway.upstream.enqueue(story(40, 30))
    const leaving = new AbortController()
    const first = await startChat(gateway.url, key.secret, "chat-leave", undefined, leaving.signal)
    const { text: before } = await readUntil(first, "word3")
    leaving.abort()
    await sleep(200)
    const resumed = await resume(gateway.url, key.secret, "chat-leave")
    expect(resumed.status).toBe(200)
    const whole = await readAll(resumed)
    expect(whole.startsWith(before.slice(0, before.indexOf("word3")))).toBe(true)
    expect(textOf(whole)).toBe(story(40, 0).text)
    expect(finishOf(whole).finishReason).toBe("stop")
    expect(gateway.upstream.requests.at(-1)!.aborted).toBe(false)
    const [row] = await gateway.ledgerRows({ keyId: key.id, limit: 1 })
    expect(row!.outcome).toBe("finished")
  })

  it("stop ends the run within a second, with the finish reason stopped, in the stream and the ledger", async () => {
    gateway.upstream.enqueue(story(400, 50))
    const first = await startChat(gateway.url, key.secret, "chat-stop")
    const { reader } = await readUntil(first, "word2")
    const askedAt = Date.now()
    const stopped = await stopRun(gateway.url, key.secret, "chat-stop")
    expect(stopped.status).toBe(202)
    expect(await stopped.json()).toEqual({ success: true, data: { id: "chat-stop", status: "stopping" } })
    await drain(reader)
    expect(Date.now() - askedAt).toBeLessThan(1_000)
    await gateway.upstream.waitForAbort(1_000)
    const whole = await readAll(await resume(gateway.url, key.secret, "chat-stop"))
    expect(finishOf(whole).messageMetadata).toMatchObject({ finished: false, finishReason: "stopped" })
    expect(whole.endsWith("data: [DONE]\n\n")).toBe(true)
    const [row] = await gateway.ledgerRows({ keyId: key.id, limit: 1 })
    expect(row).toMatchObject({ outcome: "stopped", finishReason: "stopped", status: 200 })
    // Stopping what already ended says so.
    const again = await stopRun(gateway.url, key.secret, "chat-stop")
    expect(again.status).toBe(200)
    expect((await again.json()).data.status).toBe("ended")
  })

  it("a run stopped before its model answered ends as a valid stream that says stopped", async () => {
    gateway.upstream.enqueue({ type: "text", text: "too late", delayMs: 5_000 })
    const answer = startChat(gateway.url, key.secret, "chat:early")
    await sleep(300)
    // The AI SDK's transport encodes the id as one path segment.
    const stopped = await fetch(`${gateway.url}/api/v1/chat/${encodeURIComponent("chat:early")}/stop`, {
      method: "POST",
      headers: bearer(key.secret)
    })
    expect(stopped.status).toBe(202)
    const whole = await readAll(await answer)
    expect(whole.startsWith("data: {\"type\":\"start\"")).toBe(true)
    expect(finishOf(whole).messageMetadata).toMatchObject({ finished: false, finishReason: "stopped" })
    expect(textOf(whole)).toBe("")
    await gateway.upstream.waitForAbort(1_000)
  })

  it("another key's run is 404 to resume and to stop, as one that does not exist; starting it is 409", async () => {
    gateway.upstream.enqueue(story(200, 20))
    const first = await startChat(gateway.url, key.secret, "chat-mine")
    const { reader } = await readUntil(first, "word1")
    for (
      const answer of [
        await resume(gateway.url, other.secret, "chat-mine"),
        await stopRun(gateway.url, other.secret, "chat-mine")
      ]
    ) {
      expect(answer.status).toBe(404)
      expect(await answer.json()).toMatchObject({ error: "NotFound", details: { id: "chat-mine" } })
    }
    expect((await stopRun(gateway.url, other.secret, "chat-none")).status).toBe(404)
    const taken = await startChat(gateway.url, other.secret, "chat-mine")
    expect(taken.status).toBe(409)
    expect(await taken.json()).toMatchObject({ error: "Conflict" })
    expect((await stopRun(gateway.url, key.secret, "chat-mine")).status).toBe(202)
    await drain(reader)
  })

  it("without onDisconnect nothing is kept: resume is 204 and a client that leaves cancels its run", async () => {
    gateway.upstream.enqueue(story(200, 20))
    const leaving = new AbortController()
    const first = await startChat(gateway.url, key.secret, "chat-plain", {}, leaving.signal)
    await readUntil(first, "word1")
    const during = await resume(gateway.url, key.secret, "chat-plain")
    expect(during.status).toBe(204)
    leaving.abort()
    await gateway.upstream.waitForAbort(1_000)
    expect((await resume(gateway.url, key.secret, "chat-plain")).status).toBe(204)
    expect((await stopRun(gateway.url, key.secret, "chat-plain")).status).toBe(404)
    expect((await resume(gateway.url, key.secret, "never-asked")).status).toBe(204)
  })

  it("refuses a bad onDisconnect, or continue without an id or a stream, in the spec's error body", async () => {
    const cases: ReadonlyArray<[Record<string, unknown>, string]> = [
      [{ onDisconnect: "sometimes" }, "onDisconnect"],
      [{ id: undefined, onDisconnect: "continue" }, `needs the chat's "id"`],
      [{ onDisconnect: "continue", stream: false }, "stream: true"],
      [{ id: "has spaces", onDisconnect: "continue" }, "id: must be"],
      [{ id: 7 }, "id"]
    ]
    for (const [extra, named] of cases) {
      const response = await fetch(`${gateway.url}/api/v1/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer(key.secret) },
        body: JSON.stringify({
          id: "chat-bad",
          model: "test/m1",
          messages: [{ role: "user", content: "hi" }],
          ...extra
        })
      })
      expect(response.status, JSON.stringify(extra)).toBe(400)
      const body = await response.json()
      expect(body).toMatchObject({ error: "BadRequest" })
      expect(body.details.error).toContain(named)
    }
  })

  it("a stream past its bound stops being kept: a resume ends with an error, not a silently short answer", async () => {
    gateway.upstream.enqueue({ type: "long", delta: "x".repeat(1000), count: 200 })
    const original = await readAll(await startChat(gateway.url, key.secret, "chat-long"))
    expect(finishOf(original).finishReason).toBe("stop")
    const resumed = await readAll(await resume(gateway.url, key.secret, "chat-long"))
    expect(resumed.length).toBeLessThan(64 * 1024 + 1024)
    expect(original.startsWith(resumed.slice(0, resumed.indexOf("data: {\"type\":\"error\"")))).toBe(true)
    expect(resumed).toContain("passed the size a resumable stream may keep")
    expect(finishOf(resumed).finishReason).toBe("error")
    expect(resumed.endsWith("data: [DONE]\n\n")).toBe(true)
  })

  it("the retention sweep forgets a kept stream once its time after the end has passed", async () => {
    gateway.upstream.enqueue(story(3, 0))
    await readAll(await startChat(gateway.url, key.secret, "chat-swept"))
    expect((await resume(gateway.url, key.secret, "chat-swept")).status).toBe(200)
    await sleep(2_200)
    expect((await resume(gateway.url, key.secret, "chat-swept")).status).toBe(204)
  })
})
