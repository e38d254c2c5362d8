import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { freshDatabase, ok, parley } from "./cliRun.ts"

const limitsOf = (database: string) =>
  Effect.map(ok(database, "keys", "list", "--json"), (run) => JSON.parse(run.stdout)[0].limits)

describe("parley keys --limits (docs/DESIGN.md §11)", { timeout: 120_000 }, () => {
  it.effect("create and update set the limits; bad ones are refused and change nothing", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const created = yield* ok(
        database,
        "keys",
        "create",
        "--name",
        "ops",
        "--limits",
        `{"requestsPerMinute":3}`,
        "--json"
      )
      const { id } = JSON.parse(created.stdout) as { id: string }
      assert.deepStrictEqual(yield* limitsOf(database), { requestsPerMinute: 3 })

      const updated = yield* ok(database, "keys", "update", id, "--limits", `{"concurrentRequests":2}`)
      assert.include(updated.stdout, `limits:  {"concurrentRequests":2}`)
      assert.deepStrictEqual(yield* limitsOf(database), { concurrentRequests: 2 })

      for (const bad of [`{"concurrentRequests":0}`, `{"rpm":1}`, `nope`]) {
        const refused = yield* parley(database, "keys", "update", id, "--limits", bad)
        assert.notStrictEqual(refused.code, 0)
        assert.include(refused.stderr, "--limits")
      }
      assert.deepStrictEqual(yield* limitsOf(database), { concurrentRequests: 2 })
    }))
})
