import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { type Change, ChangeFeed } from "../../src/store/ChangeFeed.ts"

describe("ChangeFeed in one process", () => {
  it.effect("tells the topic's subscribers before publish returns, until their scope closes", () =>
    Effect.gen(function*() {
      const feed = yield* ChangeFeed
      const heard: Array<string> = []
      const record = (name: string) => (change: Change) =>
        Effect.sync(() => heard.push(`${name}:${change._tag === "One" ? change.id : "all"}`))
      const scope = yield* Scope.make()
      yield* Scope.provide(feed.subscribe("keys", record("a")), scope)
      yield* feed.subscribe("keys", record("b"))
      yield* feed.subscribe("accounts", record("c"))

      yield* feed.publish("keys", "key_1")
      assert.deepStrictEqual(heard, ["a:key_1", "b:key_1"])
      yield* Scope.close(scope, Exit.void)
      yield* feed.publish("keys", "key_2")
      yield* feed.publish("accounts", "acct_1")
      assert.deepStrictEqual(heard, ["a:key_1", "b:key_1", "b:key_2", "c:acct_1"])
    }).pipe(Effect.scoped, Effect.provide(ChangeFeed.layerLocal)))

  it.effect("a failing handler never keeps the others from hearing, nor fails the publisher", () =>
    Effect.gen(function*() {
      const feed = yield* ChangeFeed
      const heard: Array<Change> = []
      yield* feed.subscribe("mcp-servers", () => Effect.die(new Error("broken subscriber")))
      yield* feed.subscribe("mcp-servers", (change) => Effect.sync(() => heard.push(change)))
      yield* feed.publish("mcp-servers", "srv_1")
      assert.deepStrictEqual(heard, [{ _tag: "One", id: "srv_1" }])
    }).pipe(Effect.scoped, Effect.provide(ChangeFeed.layerLocal)))
})
