import { Effect } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { postJson } from "../support/http.ts"
import { throwOnWrite } from "../support/throwingWrites.ts"
import { makeTestTool } from "../support/tools.ts"

interface Door {
  readonly protocol: string
  readonly path: string
  readonly headers: (secret: string) => Record<string, string>
  readonly body: (stream: boolean) => Record<string, unknown>
  /** The message of an error answer in the door's envelope. */
  readonly message: (body: any) => unknown
  /** What the door's stream ends with when it breaks off (its `broken` ending). */
  readonly cut: string
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` })
const messages = [{ role: "user", content: "Hi" }]

const doors: ReadonlyArray<Door> = [
  {
    protocol: "ui",
    path: "/api/v1/chat",
    headers: bearer,
    body: (stream) => ({ model: "test/m1", messages, stream }),
    message: (body) => body.statusCode === 500 ? body.message : undefined,
    cut: `"finishReason":"error"`
  },
  {
    protocol: "chat-completions",
    path: "/v1/chat/completions",
    headers: bearer,
    body: (stream) => ({ model: "test/m1", messages, stream }),
    message: (body) => body.error.type === "api_error" ? body.error.message : undefined,
    cut: `"type":"api_error"`
  },
  {
    protocol: "responses",
    path: "/v1/responses",
    headers: bearer,
    body: (stream) => ({ model: "test/m1", input: "Hi", stream }),
    message: (body) => body.error.type === "api_error" ? body.error.message : undefined,
    cut: "event: response.failed"
  },
  {
    protocol: "messages",
    path: "/v1/messages",
    headers: (secret) => ({ "x-api-key": secret }),
    body: (stream) => ({ model: "test/m1", max_tokens: 100, messages, stream }),
    message: (body) => body.type === "error" && body.error.type === "api_error" ? body.error.message : undefined,
    cut: "event: error"
  }
]

const logs: Array<Record<string, unknown>> = []
const interrupted: Array<string> = []
let gateway: TestGateway
let secret: string
let undo: (() => void) | undefined

beforeAll(async () => {
  gateway = await startGateway({
    tools: [
      makeTestTool({
        name: "wait",
        execute: (input) =>
          Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => void interrupted.push(input.text))))
      })
    ],
    observability: { metricsPublic: true },
    observe: { logSink: (line) => void logs.push(JSON.parse(line)) }
  })
  ;({ secret } = await gateway.createKey())
})
afterEach(() => {
  undo?.()
  undo = undefined
})
afterAll(() => gateway.close())

// A slow answer: still streaming from upstream when its writes throw, so that its interruption shows there.
const slowText = () =>
  gateway.upstream.enqueue({
    type: "text",
    text: "one two three four five six seven eight nine zebra",
    chunkDelayMs: 100
  })

const post = (door: Door, id: string, stream: boolean, extra: Record<string, unknown> = {}) =>
  postJson(`${gateway.url}${door.path}`, { ...door.body(stream), ...extra }, {
    ...door.headers(secret),
    "x-correlation-id": id
  })

const writeFailures = async (protocol: string, stage: string) => {
  const text = await (await fetch(`${gateway.url}/metrics`)).text()
  const prefix = `parley_response_write_failures_total{protocol="${protocol}",stage="${stage}"} `
  const line = text.split("\n").find((candidate) => candidate.startsWith(prefix))
  return line === undefined ? 0 : Number(line.slice(prefix.length))
}

const loggedOnce = (id: string) => {
  const lines = logs.filter((line) => line.correlationId === id && line.msg === "Response write failed")
  expect(lines, JSON.stringify(logs.filter((line) => line.correlationId === id))).toHaveLength(1)
  expect(String(lines[0]!.cause)).toContain("a test made")
  return lines[0]!
}

// The next request on the same gateway: answered as ever.
const servedNext = async (door: Door) => {
  gateway.upstream.enqueue({ type: "text", text: "still here" })
  const response = await post(door, `next-${door.protocol}`, false)
  const text = await response.text()
  expect(response.status, text).toBe(200)
  expect(text).toContain("still here")
}

describe("one answer's failure stays in that answer (issue 32 part 2, docs/DESIGN.md §3.25)", () => {
  for (const door of doors) {
    it(`${door.path}: a streamed answer whose head cannot be written is a 500 in the door's envelope, its run interrupted`, async () => {
      const id = `head-${door.protocol}`
      const before = await writeFailures(door.protocol, "head")
      slowText()
      undo = throwOnWrite(id, "writeHead")
      const response = await post(door, id, true)
      const answer = await response.json()
      expect(response.status, JSON.stringify(answer)).toBe(500)
      expect(door.message(answer)).toBe("An unexpected error occurred")
      expect(response.headers.get("x-correlation-id")).toBe(id)
      expect((await gateway.upstream.waitForAbort(5_000)).aborted).toBe(true)
      expect(await writeFailures(door.protocol, "head")).toBe(before + 1)
      expect(loggedOnce(id).stage).toBe("head")
      await servedNext(door)
    })

    it(`${door.path}: a streamed answer whose chunk cannot be written ends with the door's cut ending, its run interrupted`, async () => {
      const id = `chunk-${door.protocol}`
      const before = await writeFailures(door.protocol, "chunk")
      slowText()
      undo = throwOnWrite(id, "write", 2)
      const response = await post(door, id, true)
      const text = await response.text()
      expect(response.status).toBe(200)
      expect(text).toContain(door.cut)
      expect(text).not.toContain("zebra")
      expect((await gateway.upstream.waitForAbort(5_000)).aborted).toBe(true)
      expect(await writeFailures(door.protocol, "chunk")).toBe(before + 1)
      expect(loggedOnce(id).stage).toBe("chunk")
      await servedNext(door)
    })

    it(`${door.path}: a streamed answer whose end cannot be written is cut off`, async () => {
      const id = `end-${door.protocol}`
      const before = await writeFailures(door.protocol, "end")
      gateway.upstream.enqueue({ type: "text", text: "short" })
      undo = throwOnWrite(id, "end")
      // Its head and its end leave in one write, which threw: the client reads no answer.
      await expect(post(door, id, true).then((response) => response.text())).rejects.toThrow()
      expect(await writeFailures(door.protocol, "end")).toBe(before + 1)
      expect(loggedOnce(id).stage).toBe("end")
      await servedNext(door)
    })

    it(`${door.path}: a JSON answer whose head cannot be written is a 500 in the door's envelope`, async () => {
      const id = `json-${door.protocol}`
      const before = await writeFailures(door.protocol, "head")
      gateway.upstream.enqueue({ type: "text", text: "whole" })
      undo = throwOnWrite(id, "writeHead")
      const response = await post(door, id, false)
      const answer = await response.json()
      expect(response.status, JSON.stringify(answer)).toBe(500)
      expect(door.message(answer)).toBe("An unexpected error occurred")
      expect(await writeFailures(door.protocol, "head")).toBe(before + 1)
      loggedOnce(id)
      await servedNext(door)
    })
  }

  it("interrupts the run's tools when a chunk cannot be written", async () => {
    const id = "tool-ui"
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_wait", name: "wait", arguments: { text: "waiting" } }]
    })
    undo = throwOnWrite(id, "write")
    const response = await post(doors[0]!, id, true, { allowedTools: ["wait"] })
    const text = await response.text()
    expect(response.status).toBe(200)
    expect(text).toContain(doors[0]!.cut)
    await expect.poll(() => interrupted).toContain("waiting")
    loggedOnce(id)
    await servedNext(doors[0]!)
  })

  it("a kept run's replay whose write throws is cut, logged once and counted under its door, and nothing else", async () => {
    gateway.upstream.enqueue({ type: "text", text: "kept for the replay" })
    const kept = await post(doors[0]!, "kept-run", true, { id: "chat-replayed", onDisconnect: "continue" })
    expect(await kept.text()).toContain("replay")
    const before = await writeFailures("ui", "chunk")
    const id = "replay-ui"
    undo = throwOnWrite(id, "write")
    const cut = await fetch(`${gateway.url}/api/v1/chat/chat-replayed/stream`, {
      headers: { ...bearer(secret), "x-correlation-id": id }
    }).then((response) => response.text()).then(() => "whole", () => "cut")
    expect(cut).toBe("cut")
    await expect.poll(() => writeFailures("ui", "chunk")).toBe(before + 1)
    loggedOnce(id)
    expect(logs.filter((line) => line.correlationId === id && line.msg === "Unhandled request failure")).toEqual([])
    undo()
    undo = undefined
    const again = await fetch(`${gateway.url}/api/v1/chat/chat-replayed/stream`, { headers: bearer(secret) })
    expect(again.status).toBe(200)
    expect(await again.text()).toContain("replay")
  })
})
