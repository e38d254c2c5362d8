import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { LedgerStore } from "../../src/ledger/LedgerStore.ts"
import { UsageQueries } from "../../src/ledger/UsageQueries.ts"
import * as Database from "../../src/store/Database.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import { usageEvent } from "./fixtures.ts"

const at = (iso: string) => new Date(iso)

// Five requests by hand; the sums below are worked out from them.
const events = [
  usageEvent({
    correlationId: "c1",
    time: at("2025-03-01T10:15:00Z"),
    inputTokens: 10,
    outputTokens: 2,
    totalTokens: 12,
    reasoningTokens: 1,
    cachedInputTokens: 4,
    toolCalls: { echo: 2 },
    costUsd: 0.5
  }),
  usageEvent({
    correlationId: "c2",
    time: at("2025-03-01T10:45:00Z"),
    model: "test/m2",
    outcome: "error",
    status: 503,
    inputTokens: 20,
    outputTokens: 3,
    totalTokens: 23
  }),
  usageEvent({
    correlationId: "c3",
    time: at("2025-03-01T11:05:00Z"),
    keyId: "key_b",
    outcome: "rejected",
    status: 400,
    inputTokens: 5,
    outputTokens: 1,
    totalTokens: 6,
    toolCalls: { echo: 1, bash: 1 },
    costUsd: 0.25
  }),
  usageEvent({
    correlationId: "c4",
    protocol: "mcp",
    time: at("2025-03-02T00:30:00Z"),
    accountId: "acct_x",
    outcome: "cancelled",
    inputTokens: 7,
    outputTokens: 7,
    totalTokens: 14,
    costUsd: 0.125
  }),
  // Outside the default window (30 days before `to`).
  usageEvent({ correlationId: "c5", time: at("2025-01-10T08:00:00Z"), inputTokens: 1000 })
]

const to = at("2025-03-03T00:00:00Z")

const zero = { reasoningTokens: 0, cachedInputTokens: 0, toolCalls: 0 }
const hour10 = {
  requests: 2,
  errors: 1,
  inputTokens: 30,
  outputTokens: 5,
  totalTokens: 35,
  reasoningTokens: 1,
  cachedInputTokens: 4,
  toolCalls: 2,
  costUsd: 0.5
}
const hour11 = {
  ...zero,
  requests: 1,
  errors: 1,
  inputTokens: 5,
  outputTokens: 1,
  totalTokens: 6,
  toolCalls: 2,
  costUsd: 0.25
}
const c4 = { ...zero, requests: 1, errors: 0, inputTokens: 7, outputTokens: 7, totalTokens: 14, costUsd: 0.125 }

const queriesOn = (database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  Effect.gen(function*() {
    yield* (yield* LedgerStore).insert(events)
    const queries = yield* UsageQueries

    assert.deepStrictEqual(yield* queries.usage({ groupBy: "hour", to }), [
      { bucket: "2025-03-01T10:00:00.000Z", ...hour10 },
      { bucket: "2025-03-01T11:00:00.000Z", ...hour11 },
      { bucket: "2025-03-02T00:00:00.000Z", ...c4 }
    ])
    assert.deepStrictEqual(yield* queries.usage({ groupBy: "day", to }), [
      {
        bucket: "2025-03-01T00:00:00.000Z",
        requests: 3,
        errors: 2,
        inputTokens: 35,
        outputTokens: 6,
        totalTokens: 41,
        reasoningTokens: 1,
        cachedInputTokens: 4,
        toolCalls: 4,
        costUsd: 0.75
      },
      { bucket: "2025-03-02T00:00:00.000Z", ...c4 }
    ])
    const windowStart = "2025-02-01T00:00:00.000Z"
    assert.deepStrictEqual(yield* queries.usage({ groupBy: "model", to }), [
      {
        bucket: windowStart,
        model: "test/m1",
        requests: 3,
        errors: 1,
        inputTokens: 22,
        outputTokens: 10,
        totalTokens: 32,
        reasoningTokens: 1,
        cachedInputTokens: 4,
        toolCalls: 4,
        costUsd: 0.875
      },
      {
        bucket: windowStart,
        model: "test/m2",
        ...zero,
        requests: 1,
        errors: 1,
        inputTokens: 20,
        outputTokens: 3,
        totalTokens: 23,
        costUsd: null
      }
    ])
    assert.deepStrictEqual(
      (yield* queries.usage({ groupBy: "key", to })).map((row) => [row.keyId, row.requests, row.costUsd]),
      [["key_a", 3, 0.625], ["key_b", 1, 0.25]]
    )

    // Filters: key, account, model, and an explicit window that reaches the old row.
    assert.deepStrictEqual(
      (yield* queries.usage({ groupBy: "day", keyId: "key_a", to })).map((row) => [row.bucket, row.requests]),
      [["2025-03-01T00:00:00.000Z", 2], ["2025-03-02T00:00:00.000Z", 1]]
    )
    assert.deepStrictEqual(
      (yield* queries.usage({ groupBy: "key", accountId: "acct_x", to })).map((row) => [row.keyId, row.inputTokens]),
      [["key_a", 7]]
    )
    assert.deepStrictEqual(
      (yield* queries.usage({ groupBy: "hour", model: "test/m2", to })).map((row) => row.inputTokens),
      [20]
    )
    const all = yield* queries.usage({ groupBy: "key", keyId: "key_a", from: at("2025-01-01T00:00:00Z"), to })
    assert.deepStrictEqual(all.map((row) => [row.bucket, row.requests, row.inputTokens]), [[
      "2025-01-01T00:00:00.000Z",
      4,
      1037
    ]])
    // `to` is exclusive, `from` inclusive.
    assert.deepStrictEqual(
      (yield* queries.usage({ groupBy: "key", from: at("2025-03-01T10:45:00Z"), to: at("2025-03-01T11:05:00Z") }))
        .map((row) => row.requests),
      [1]
    )

    // Requests: newest first, a page at a time by the time cursor.
    const page1 = yield* queries.requests({ keyId: "key_a", limit: 2 })
    assert.deepStrictEqual(page1.map((row) => row.correlationId), ["c4", "c2"])
    const page2 = yield* queries.requests({ keyId: "key_a", limit: 2, before: page1[1]!.time })
    assert.deepStrictEqual(page2.map((row) => row.correlationId), ["c1", "c5"])
    assert.deepStrictEqual(
      (yield* queries.requests({ accountId: "acct_x" })).map((row) => [row.correlationId, row.protocol]),
      [["c4", "mcp"]]
    )

    const one = yield* queries.request("c1")
    assert.deepStrictEqual(Option.getOrThrow(one), events[0])
    assert.isTrue(Option.isNone(yield* queries.request("c1", "acct_x")))
    assert.isTrue(Option.isNone(yield* queries.request("nope")))
  }).pipe(Effect.provide(Layer.mergeAll(LedgerStore.layer, UsageQueries.layer).pipe(Layer.provideMerge(database))))

describe("UsageQueries on SQLite", () => {
  it.effect("groups by hour, day, model and key with filters, and pages requests", () =>
    queriesOn(Database.layerFromUrl("sqlite::memory:")))
})

describePostgres("UsageQueries on Postgres", () => {
  it.live("groups by hour, day, model and key with filters, and pages requests", () =>
    withFreshSchema((schema) => queriesOn(Database.layerFromUrl(urlWithSchema(schema)))))
})
