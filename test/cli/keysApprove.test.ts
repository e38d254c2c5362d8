import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { freshDatabase, ok, parley } from "./cliRun.ts"

const listJson = (database: string) =>
  Effect.map(ok(database, "keys", "list", "--json"), (run) => JSON.parse(run.stdout) as Array<Record<string, unknown>>)

describe("parley keys --approve (docs/DESIGN.md §10)", { timeout: 120_000 }, () => {
  it.effect("create and update set the tools that wait for approval; unknown names are refused", () =>
    Effect.gen(function*() {
      const database = freshDatabase()
      const created = yield* ok(
        database,
        "keys",
        "create",
        "--name",
        "ops",
        "--tools",
        "bash,browser",
        "--approve",
        "bash, browser",
        "--json"
      )
      const { id } = JSON.parse(created.stdout) as { id: string }
      assert.deepStrictEqual((yield* listJson(database))[0]!.approvalRequired, ["bash", "browser"])

      const updated = yield* ok(database, "keys", "update", id, "--approve", "bash")
      assert.include(updated.stdout, "approve: bash")
      assert.deepStrictEqual((yield* listJson(database))[0]!.approvalRequired, ["bash"])

      const refused = yield* parley(database, "keys", "update", id, "--approve", "bsh")
      assert.notStrictEqual(refused.code, 0)
      assert.include(refused.stderr, `--approve: unknown tool "bsh"`)
      assert.deepStrictEqual((yield* listJson(database))[0]!.approvalRequired, ["bash"])
    }))
})
