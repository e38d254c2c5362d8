import { request } from "node:http"
import { afterEach, describe, expect, it } from "vitest"
import { startGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { gatewayWithKey } from "../../support/openaiTools.ts"
import { createMessageProblems, socketTurnProblems } from "../../support/openResponses.ts"
import { ResponsesSocket, type SocketEvent, UpgradeRefused } from "../../support/responsesSocket.ts"

/**
 * `/v1/responses` in WebSocket mode (issue 34 part 6, docs/api.md, the Open
 * Responses document's `x-openresponses-websocket`) with a plain WebSocket
 * client (`ws`): the key on the upgrade, `response.create` messages in, the
 * streaming events out (each valid by the document), a
 * `WebSocketErrorEvent` for a turn refused before it began, the limits and
 * the ledger as over HTTP, and a client that leaves cancelling its turn.
 */
const at = gatewayWithKey()
const sockets: Array<ResponsesSocket> = []

const open = async (secret = at.secret) => {
  const socket = await ResponsesSocket.open(at.gateway.url, secret)
  sockets.push(socket)
  return socket
}

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close()
})

const create = (body: Record<string, unknown>) => ({ type: "response.create", model: "test/m1", ...body })
const types = (events: ReadonlyArray<SocketEvent>) => events.map((event) => event.type)
const last = (events: ReadonlyArray<SocketEvent>) => events.at(-1)!

const validTurn = (events: ReadonlyArray<SocketEvent>) => {
  expect(socketTurnProblems(events)).toEqual([])
  return events
}

describe("a turn", () => {
  it("streams the events an HTTP stream carries, one message each, valid by the document, without [DONE]", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Hello over the socket" })
    const socket = await open()
    const message = create({ input: "Say hello" })
    expect(createMessageProblems(message)).toEqual([])
    socket.send(message)
    const events = validTurn(await socket.untilTurnEnds())
    expect(types(events).slice(0, 2)).toEqual(["response.created", "response.in_progress"])
    expect(last(events)).toMatchObject({ type: "response.completed", response: { status: "completed" } })
    const text = events.filter((event) => event.type === "response.output_text.delta").map((event) => event.delta)
    expect(text.join("")).toBe("Hello over the socket")
    expect(socket.raw.some((data) => data.includes("[DONE]"))).toBe(false)

    // The same body over HTTP streams the same events.
    at.gateway.upstream.enqueue({ type: "text", text: "Hello over the socket" })
    const http = await (await postJson(
      `${at.gateway.url}/v1/responses`,
      { model: "test/m1", input: "Say hello", stream: true },
      bearer(at.secret)
    )).text()
    const httpTypes = [...http.matchAll(/^event: (.+)$/gm)].map((match) => match[1])
    expect(types(events)).toEqual(httpTypes)
  })

  it("runs turns one after another on one connection, each its own response and ledger row", async () => {
    const { id, secret } = await at.gateway.createKey()
    const socket = await open(secret)
    for (const text of ["one", "two", "three"]) {
      at.gateway.upstream.enqueue({ type: "text", text, usage: { promptTokens: 3, completionTokens: 1 } })
      const events = validTurn(await socket.turn(create({ input: `say ${text}` })))
      expect(last(events).response.output[0].content[0].text).toBe(text)
    }
    const rows = await at.gateway.ledgerRows({ keyId: id })
    expect(rows).toHaveLength(3)
    for (const row of rows) {
      expect(row).toMatchObject({
        protocol: "responses",
        status: 200,
        outcome: "finished",
        inputTokens: 3,
        outputTokens: 1
      })
    }
    expect(new Set(rows.map((row) => row.correlationId)).size).toBe(3)
  })

  it("continues the connection's last response by previous_response_id even unstored, as Codex asks", async () => {
    const socket = await open()
    at.gateway.upstream.enqueue({ type: "text", text: "It is 4." })
    const first = last(await socket.turn(create({ input: "What is 2+2?", store: false })))
    at.gateway.upstream.enqueue({ type: "text", text: "It is 8." })
    const second = validTurn(
      await socket.turn(create({ previous_response_id: first.response.id, input: "And doubled?", store: false }))
    )
    expect(last(second).response.previous_response_id).toBe(first.response.id)
    // The model saw the whole conversation: the first question, its answer, the second.
    const sent = JSON.stringify(at.gateway.upstream.requests.at(-1)!.body)
    expect(sent).toContain("What is 2+2?")
    expect(sent).toContain("It is 4.")
    expect(sent).toContain("And doubled?")

    // Unstored, it is the connection's alone: another connection cannot find it, nor can HTTP.
    const other = await open()
    const refused = await other.turn(create({ previous_response_id: first.response.id, input: "again" }))
    expect(socketTurnProblems(refused)).toEqual([])
    expect(refused).toEqual([{
      type: "error",
      status: 400,
      error: expect.objectContaining({ code: "previous_response_not_found", param: "previous_response_id" })
    }])
  })

  it("continues a stored response from any connection, and a stored turn is retrievable over HTTP", async () => {
    const socket = await open()
    at.gateway.upstream.enqueue({ type: "text", text: "kept" })
    const first = last(await socket.turn(create({ input: "keep this" })))
    const retrieved = await fetch(`${at.gateway.url}/v1/responses/${first.response.id}`, { headers: bearer(at.secret) })
    expect(retrieved.status).toBe(200)
    expect((await retrieved.json()).output[0].content[0].text).toBe("kept")
    const other = await open()
    at.gateway.upstream.enqueue({ type: "text", text: "continued" })
    validTurn(await other.turn(create({ previous_response_id: first.response.id, input: "go on" })))
    expect(JSON.stringify(at.gateway.upstream.requests.at(-1)!.body)).toContain("keep this")
  })

  it("generate: false prepares a response without calling the model, which the next turn continues", async () => {
    const socket = await open()
    const calls = at.gateway.upstream.requests.length
    const warm = validTurn(
      await socket.turn(create({ input: "You will be asked about Paris.", store: false, generate: false }))
    )
    expect(types(warm)).toEqual(["response.created", "response.in_progress", "response.completed"])
    expect(last(warm).response.output).toEqual([])
    expect(at.gateway.upstream.requests.length).toBe(calls)
    at.gateway.upstream.enqueue({ type: "text", text: "Paris is in France." })
    validTurn(await socket.turn(create({ previous_response_id: last(warm).response.id, input: "Where is it?" })))
    expect(JSON.stringify(at.gateway.upstream.requests.at(-1)!.body)).toContain("You will be asked about Paris.")
  })
})

describe("a connection's remembered conversation", () => {
  it("is held to the body limit as the whole conversation sent over HTTP would be", async () => {
    const gateway = await startGateway({ bodyLimitBytes: 4_000 })
    try {
      const { secret } = await gateway.createKey()
      const socket = await ResponsesSocket.open(gateway.url, secret)
      gateway.upstream.enqueue({ type: "text", text: "noted" })
      const first = last(await socket.turn(create({ input: "a".repeat(2_500), store: false })))
      expect(first.type).toBe("response.completed")
      const refused = await socket.turn(create({
        previous_response_id: first.response.id,
        input: "b".repeat(2_500),
        store: false
      }))
      expect(socketTurnProblems(refused)).toEqual([])
      expect(refused[0]).toMatchObject({ type: "error", status: 413 })
      expect(refused[0]!.error.message).toMatch(/previous_response_id/)
      socket.close()
    } finally {
      await gateway.close()
    }
  })
})

describe("a turn refused before it began", () => {
  const refusals: ReadonlyArray<readonly [string, unknown, RegExp]> = [
    ["not JSON", "{not json", /JSON/],
    ["nested too deep", `{"type":"response.create","input":${"[".repeat(2_000)}${"]".repeat(2_000)}}`, /nested deeper/],
    ["not a response.create", { type: "response.cancel" }, /"type" must be "response.create"/],
    ["in the background", create({ input: "x", background: true }), /"background" is for HTTP/],
    ["not streamed", create({ input: "x", stream: false }), /"stream" is for HTTP/],
    ["an invalid body", create({ input: 42 }), /input/],
    ["a model the gateway lacks", create({ model: "test/none", input: "x" }), /test\/none/]
  ]
  it.each(refusals)(
    "%s: one WebSocketErrorEvent in the door's envelope, nothing run, the connection still usable",
    async (_, message, says) => {
      const socket = await open()
      const calls = at.gateway.upstream.requests.length
      socket.send(message)
      const events = await socket.untilTurnEnds()
      expect(socketTurnProblems(events)).toEqual([])
      expect(events[0]).toMatchObject({ type: "error", status: expect.any(Number) })
      expect(events[0]!.status).toBeGreaterThanOrEqual(400)
      expect(events[0]!.status).toBeLessThan(500)
      expect(events[0]!.error.message).toMatch(says)
      expect(at.gateway.upstream.requests.length).toBe(calls)
      at.gateway.upstream.enqueue({ type: "text", text: "still here" })
      validTurn(await socket.turn(create({ input: "hello" })))
    }
  )

  it("a binary message is refused, as is a message while a turn runs (that turn goes on)", async () => {
    const socket = await open()
    socket.ws.send(Buffer.from(JSON.stringify(create({ input: "x" }))), { binary: true })
    expect((await socket.untilTurnEnds())[0]!.error.message).toMatch(/as text, not binary/)
    at.gateway.upstream.enqueue({ type: "text", text: "slow answer here", chunkDelayMs: 100 })
    socket.send(create({ input: "first" }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    socket.send(create({ input: "second" }))
    const events = await socket.untilTurnEnds()
    // The refusal comes first, then the first turn's events to its end.
    expect(events.at(-1)!.type).toBe("error")
    expect(events.at(-1)!.error.message).toMatch(/a response is in progress on this connection/)
    const rest = validTurn(await socket.untilTurnEnds())
    expect(last(rest).type).toBe("response.completed")
  })

  it("a key's request limit refuses a turn with 429 and its Retry-After, as over HTTP", async () => {
    const { id, secret } = await at.gateway.createKey({ limits: { requestsPerMinute: 1 } })
    const socket = await open(secret)
    at.gateway.upstream.enqueue({ type: "text", text: "one" })
    validTurn(await socket.turn(create({ input: "one" })))
    const refused = await socket.turn(create({ input: "two" }))
    expect(socketTurnProblems(refused)).toEqual([])
    expect(refused[0]).toMatchObject({
      type: "error",
      status: 429,
      error: { type: "rate_limit_error" },
      headers: { "retry-after": expect.stringMatching(/^\d+$/) }
    })
    const rows = await at.gateway.ledgerRows({ keyId: id })
    expect(rows.map((row) => [row.status, row.refusedLimit])).toEqual([[429, "requestsPerMinute"], [200, null]])
  })
})

describe("the upgrade", () => {
  it("without a key, or with a revoked one, is an HTTP 401 in the door's envelope, and nothing is upgraded", async () => {
    for (const secret of [undefined, "pk_live_not-a-key"]) {
      const refused = await ResponsesSocket.open(at.gateway.url, secret).catch((error) => error)
      expect(refused).toBeInstanceOf(UpgradeRefused)
      expect(refused.status).toBe(401)
      expect(JSON.parse(refused.body).error).toMatchObject({ type: "authentication_error" })
      expect(refused.headers["x-correlation-id"]).toBeUndefined()
    }
  })

  it("a key revoked while connected stops at its next turn", async () => {
    const { id, secret } = await at.gateway.createKey()
    const socket = await open(secret)
    at.gateway.upstream.enqueue({ type: "text", text: "ok" })
    validTurn(await socket.turn(create({ input: "one" })))
    await at.gateway.setStatus(id, "revoked")
    const refused = await socket.turn(create({ input: "two" }))
    expect(refused[0]).toMatchObject({ type: "error", status: 401 })
  })

  it("to a path with no WebSocket mode is answered as the request it is, and another upgrade (h2c) is none", async () => {
    const refused = await ResponsesSocket.open(at.gateway.url, at.secret, "/v1/chat/completions").catch((error) =>
      error
    )
    expect(refused).toBeInstanceOf(UpgradeRefused)
    expect(refused.status).toBe(405)
    // curl --http2 on plain HTTP asks `Upgrade: h2c` with its request: it is answered as that request.
    at.gateway.upstream.enqueue({ type: "text", text: "over HTTP/1.1" })
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${at.gateway.url}/v1/responses`, {
        method: "POST",
        headers: {
          ...bearer(at.secret),
          "content-type": "application/json",
          connection: "Upgrade, HTTP2-Settings",
          upgrade: "h2c",
          "http2-settings": "AAMAAABkAAQCAAAAAAIAAAAA"
        }
      }, (res) => {
        let body = ""
        res.on("data", (chunk: Buffer) => body += chunk.toString())
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.once("error", reject)
      req.end(JSON.stringify({ model: "test/m1", input: "hi" }))
    })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).output[0].content[0].text).toBe("over HTTP/1.1")
  })
})

describe("a client that leaves", () => {
  it("cancels its turn: the model call is aborted and the ledger says cancelled", async () => {
    const { id, secret } = await at.gateway.createKey()
    const socket = await open(secret)
    at.gateway.upstream.enqueue({ type: "text", text: "a long answer that takes a while to come", chunkDelayMs: 200 })
    socket.send(create({ input: "talk slowly" }))
    // Gone once its first event came.
    while (socket.raw.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    socket.ws.terminate()
    let rows = await at.gateway.ledgerRows({ keyId: id })
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      rows = await at.gateway.ledgerRows({ keyId: id })
    }
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ protocol: "responses", outcome: "cancelled" })
    // Well before the answer's last word would have come (about 2 s).
    expect(rows[0]!.durationMs).toBeLessThan(1_500)
  })
})

describe("an idle connection", () => {
  it("closes after the keep-alive timeout with no turn running, never during a turn longer than it", async () => {
    const gateway = await startGateway({
      connections: { maxConnections: undefined, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 400 }
    })
    try {
      const { secret } = await gateway.createKey()
      const socket = await ResponsesSocket.open(gateway.url, secret)
      // About 900 ms of answer: longer than the timeout, and the connection stays.
      gateway.upstream.enqueue({
        type: "text",
        text: "one two three four five six seven eight nine",
        chunkDelayMs: 100
      })
      const started = Date.now()
      const events = validTurn(await socket.turn(create({ input: "talk" })))
      expect(last(events).type).toBe("response.completed")
      expect(Date.now() - started).toBeGreaterThan(400)
      expect(socket.closed).toBeUndefined()
      const ended = Date.now()
      expect(await socket.untilClosed()).toEqual({ code: 1000, reason: "idle" })
      expect(Date.now() - ended).toBeGreaterThanOrEqual(300)
    } finally {
      await gateway.close()
    }
  })
})

describe("a server that shuts down", () => {
  it("closes an idle connection at once and a busy one once its turn ended, refusing new upgrades", async () => {
    const gateway = await startGateway()
    const { secret } = await gateway.createKey()
    const idle = await ResponsesSocket.open(gateway.url, secret)
    const busy = await ResponsesSocket.open(gateway.url, secret)
    gateway.upstream.enqueue({ type: "text", text: "an answer that is still coming", chunkDelayMs: 100 })
    busy.send(create({ input: "talk" }))
    while (busy.raw.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    const closed = gateway.close()
    expect(await idle.untilClosed()).toMatchObject({ code: 1001 })
    const refused = await ResponsesSocket.open(gateway.url, secret).catch((error) => error)
    // Refused in HTTP while the server drains, or not even connected once it stopped listening.
    if (refused instanceof UpgradeRefused) expect(refused.status).toBe(503)
    else expect(refused).toBeInstanceOf(Error)
    const rest = validTurn(await busy.untilTurnEnds())
    expect(last(rest).type).toBe("response.completed")
    expect(await busy.untilClosed()).toMatchObject({ code: 1001 })
    await closed
  })
})
