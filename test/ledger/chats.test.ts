import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { UsageEvent } from "../../src/domain/UsageEvent.ts"
import { UsageQueries } from "../../src/ledger/UsageQueries.ts"
import { createSchema, describePostgres } from "../store/postgres.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

const pricing = { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 }
// USD of `test/m1` tokens at `pricing`: uncached input, cached input, output.
const usd = (input: number, cached: number, output: number) =>
  ((input - cached) * 2.5 + cached * 1.25 + output * 10) / 1_000_000

/** Polls until `check` holds: a cancelled request records its row once its interruption has run. */
const eventually = async <A>(read: () => Promise<A>, check: (value: A) => boolean): Promise<A> => {
  for (let i = 0;; i++) {
    const value = await read()
    if (check(value) || i === 100) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * N chats of every outcome through the real gateway, then its ledger read
 * back: one row per authenticated request, each with its facts, and the
 * usage query's sums equal to the rows' (docs/DESIGN.md §7).
 */
const ledgerOfChats = (database: () => Promise<{ readonly url: string; readonly drop: () => Promise<void> }>) => {
  let gateway: TestGateway
  let secret: string
  let keyId: string
  let drop: () => Promise<void>

  beforeAll(async () => {
    const db = await database()
    drop = db.drop
    gateway = await startGateway({ tools: [makeTestTool({ name: "echo" })], databaseUrl: db.url, pricing })
    ;({ id: keyId, secret } = await gateway.createKey({ models: ["test/m1"] }))
  })
  afterAll(async () => {
    await gateway.close()
    await drop()
  })

  const chat = (body: unknown, key = secret) => postJson(`${gateway.url}/api/v1/chat`, body, bearer(key))

  it("writes one row per authenticated request, with its outcome, tokens, tools, timings and cost", async () => {
    const byCorrelation = new Map<string, string>()
    const send = async (label: string, body: unknown) => {
      const response = await chat(body)
      byCorrelation.set(label, response.headers.get("x-correlation-id") ?? "")
      await response.text()
      return response
    }

    gateway.upstream.enqueue({ type: "text", text: "Hello back", usage: { promptTokens: 12, completionTokens: 3 } })
    expect((await send("finished", chatBody())).status).toBe(200)

    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "call_1", name: "echo", arguments: { text: "ping" } }],
        usage: { promptTokens: 10, completionTokens: 5 }
      },
      {
        type: "text",
        text: "pong",
        usage: { promptTokens: 30, completionTokens: 7, cachedTokens: 4, reasoningTokens: 2 }
      }
    )
    expect((await send("tools", chatBody({ stream: true, allowedTools: ["echo"] }))).status).toBe(200)

    gateway.upstream.respondWith(() => ({
      type: "tool-calls",
      calls: [{ name: "echo", arguments: { text: "again" } }],
      usage: { promptTokens: 1, completionTokens: 1 }
    }))
    try {
      expect((await send("step-limit", chatBody({ allowedTools: ["echo"] }))).status).toBe(200)
    } finally {
      gateway.upstream.respondWith(() => ({ type: "text", text: "fine" }))
    }

    gateway.upstream.enqueue({ type: "error", status: 400, body: { error: { message: "bad request" } } })
    expect((await send("provider-error", chatBody())).status).toBe(500)
    expect((await send("unknown-model", chatBody({ model: "test/nope" }))).status).toBe(403)
    expect((await send("empty", chatBody({ messages: [] }))).status).toBe(400)
    expect((await send("malformed", "{not json")).status).toBe(400)
    expect((await send("validated", chatBody({ validateOnly: true }))).status).toBe(200)
    expect((await chat(chatBody(), "pk_live_not_a_key")).status).toBe(401)

    // A client that leaves mid-stream, after a tool step and during the second model call.
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "call_2", name: "echo", arguments: { text: "x" } }],
        usage: { promptTokens: 8, completionTokens: 2 }
      },
      { type: "text", text: "a b c d e f g h", chunkDelayMs: 300, usage: { promptTokens: 20, completionTokens: 8 } }
    )
    const leaving = await chat(chatBody({ stream: true, allowedTools: ["echo"] }))
    byCorrelation.set("cancelled", leaving.headers.get("x-correlation-id") ?? "")
    const reader = leaving.body!.getReader()
    let seen = ""
    while (!seen.includes("tool-output-available")) seen += new TextDecoder().decode((await reader.read()).value)
    await reader.cancel()
    await gateway.upstream.waitForAbort(3_000)

    const rows = await eventually(() => gateway.ledgerRows({ keyId }), (rows) => rows.length === 9)
    expect(rows).toHaveLength(9)
    const row = (label: string): UsageEvent => {
      const found = rows.find((event) => event.correlationId === byCorrelation.get(label))
      if (found === undefined) throw new Error(`no row for ${label}`)
      return found
    }
    for (const event of rows) {
      expect(event).toMatchObject({ keyId, accountId: "default", protocol: "ui" })
      expect(event.durationMs).toBeGreaterThanOrEqual(0)
    }

    expect(row("finished")).toMatchObject({
      model: "test/m1",
      status: 200,
      outcome: "finished",
      finishReason: "stop",
      inputTokens: 12,
      outputTokens: 3,
      totalTokens: 15,
      toolCalls: {},
      steps: 1,
      pruned: false
    })
    expect(row("finished").costUsd).toBeCloseTo(usd(12, 0, 3), 12)
    expect(row("finished").firstByteMs).not.toBeNull()

    expect(row("tools")).toMatchObject({
      status: 200,
      outcome: "finished",
      inputTokens: 40,
      outputTokens: 12,
      totalTokens: 52,
      reasoningTokens: 2,
      cachedInputTokens: 4,
      toolCalls: { echo: 1 },
      steps: 2
    })
    expect(row("tools").costUsd).toBeCloseTo(usd(40, 4, 12), 12)
    expect(row("tools").firstByteMs).toBeLessThanOrEqual(row("tools").durationMs)

    expect(row("step-limit")).toMatchObject({
      outcome: "step-limit",
      finishReason: "step-limit",
      inputTokens: 30,
      outputTokens: 30,
      toolCalls: { echo: 30 },
      steps: 30
    })

    expect(row("provider-error")).toMatchObject({ status: 500, outcome: "error", steps: 1, inputTokens: null })
    expect(row("unknown-model")).toMatchObject({ status: 403, outcome: "rejected", model: "test/nope", steps: 0 })
    expect(row("unknown-model").costUsd).toBeNull()
    expect(row("empty")).toMatchObject({ status: 400, outcome: "rejected", model: "test/m1" })
    expect(row("malformed")).toMatchObject({ status: 400, outcome: "rejected", model: null })
    expect(row("validated")).toMatchObject({ status: 200, outcome: "validated", steps: 0, inputTokens: null })
    expect(row("cancelled")).toMatchObject({
      status: 200,
      outcome: "cancelled",
      finishReason: null,
      inputTokens: 8,
      outputTokens: 2,
      toolCalls: { echo: 1 },
      steps: 2
    })

    // The usage query sums exactly the rows.
    const [total] = await gateway.run(
      Effect.flatMap(Effect.service(UsageQueries), (queries) => queries.usage({ groupBy: "key", keyId }))
    )
    const sum = (pick: (event: UsageEvent) => number | null) => rows.reduce((acc, event) => acc + (pick(event) ?? 0), 0)
    expect(total).toMatchObject({
      keyId,
      requests: 9,
      errors: 4,
      inputTokens: sum((event) => event.inputTokens),
      outputTokens: sum((event) => event.outputTokens),
      totalTokens: sum((event) => event.totalTokens),
      reasoningTokens: 2,
      cachedInputTokens: 4,
      toolCalls: 32
    })
    expect(total!.inputTokens).toBe(12 + 40 + 30 + 8)
    expect(total!.costUsd).toBeCloseTo(sum((event) => event.costUsd), 12)
  })
}

describe("the usage ledger of chats, on SQLite", () => {
  ledgerOfChats(async () => ({ url: "sqlite::memory:", drop: async () => {} }))
})

describePostgres("the usage ledger of chats, on Postgres", () => {
  ledgerOfChats(createSchema)
})
