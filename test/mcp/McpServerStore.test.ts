import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { SecretKey } from "../../src/auth/SecretKey.ts"
import { McpServerStore } from "../../src/mcp/McpServerStore.ts"
import * as Database from "../../src/store/Database.ts"

const CREDENTIAL = "Bearer stored-credential-5a0c"

/** Two stores on one database under different PARLEY_SECRET_KEYs, as after the secret was changed. */
const twoStores = Effect.gen(function*() {
  const database = yield* Layer.build(Database.layerFromUrl("sqlite::memory:"))
  const storeUnder = Effect.map(
    Layer.build(
      McpServerStore.layer.pipe(Layer.provide(SecretKey.layerTest), Layer.provide(Layer.succeedContext(database)))
    ),
    (context) => Context.get(context, McpServerStore)
  )
  return { sql: Context.get(database, SqlClient.SqlClient), first: yield* storeUnder, second: yield* storeUnder }
})

type Header = { readonly name: string; readonly value: string }

describe("McpServerStore (docs/DESIGN.md §9)", () => {
  it.effect("keeps header values sealed: the row holds names, not values; another secret cannot open them", () =>
    Effect.gen(function*() {
      const { sql, first, second } = yield* twoStores
      const created = yield* first.insert("docs", {
        url: "http://127.0.0.1:9/mcp",
        headers: { Authorization: CREDENTIAL, "X-Team": "blue" },
        enabled: true
      })
      assert.strictEqual(Redacted.value(created.headers.Authorization!), CREDENTIAL)
      assert.deepStrictEqual(created.headerNames, ["Authorization", "X-Team"])
      assert.deepStrictEqual(created.unreadable, [])

      const [row] = yield* sql<{ headers: string }>`SELECT * FROM mcp_servers`
      const raw = JSON.stringify(row)
      assert.include(raw, "Authorization")
      assert.notInclude(raw, "stored-credential")
      assert.notInclude(raw, "blue")

      const elsewhere = Option.getOrThrow(yield* second.get("docs"))
      assert.deepStrictEqual(elsewhere.unreadable, ["Authorization", "X-Team"])
      assert.deepStrictEqual(elsewhere.headers, {})

      // Values swapped between headers do not open either: each is bound to its server and header.
      const [a, b] = JSON.parse(row!.headers) as [Header, Header]
      const swapped = JSON.stringify([{ name: a.name, value: b.value }, { name: b.name, value: a.value }])
      yield* sql`UPDATE mcp_servers SET headers = ${swapped}`
      assert.deepStrictEqual(Option.getOrThrow(yield* first.get("docs")).unreadable, ["Authorization", "X-Team"])

      const updated = Option.getOrThrow(yield* first.update("docs", { headers: { Authorization: "Bearer new" } }))
      assert.notStrictEqual(updated.revision, created.revision)
      assert.deepStrictEqual(updated.unreadable, [])
      assert.isTrue(yield* first.remove("docs"))
      assert.isFalse(yield* first.remove("docs"))
      assert.isTrue(Option.isNone(yield* first.update("docs", {})))
    }).pipe(Effect.scoped))
})
