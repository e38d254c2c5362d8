import { APICallError } from "@ai-sdk/provider"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Scope } from "effect"
import type { ToolExecution } from "../../src/tools/Tool.ts"
import { makeTestTool } from "../support/tools.ts"
import {
  finish,
  makeRun,
  runCollected,
  runCollecting,
  scriptedModel,
  start,
  text,
  toolCall,
  upstreamFailure
} from "./fixtures.ts"

/**
 * A tool that keeps something for its run as the browser keeps a request's
 * pages: in the run's scope, noting each scope it was given and how it closed.
 * `hang`: each call then waits until it is interrupted.
 */
const keeper = (hang = false) => {
  const scopes = new Set<Scope.Scope>()
  const closed: Array<Exit.Exit<unknown, unknown>> = []
  const tool = makeTestTool({
    name: "keeper",
    execute: (_input, execution: ToolExecution) =>
      Effect.gen(function*() {
        const scope = execution.runScope
        if (scope === undefined) return yield* Effect.die(new Error("no run scope"))
        if (!scopes.has(scope)) {
          scopes.add(scope)
          yield* Scope.addFinalizerExit(scope, (exit) => Effect.sync(() => closed.push(exit)))
        }
        return hang ? yield* Effect.never : "kept"
      })
  })
  return { tool, scopes, closed }
}

const calls = (...ids: ReadonlyArray<string>) => [
  start,
  ...ids.flatMap((id) => toolCall(id, "keeper", `{"text":"${id}"}`)),
  finish("tool-calls")
]
const done = [start, ...text("0", "Done."), finish("stop")]

const waitUntil = (condition: () => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 500 && !condition(); i++) yield* Effect.sleep("2 millis")
    assert.isTrue(condition())
  })

describe("the run's scope (ToolExecution.runScope)", () => {
  it.live("is one for every tool call of a run, closed when the run finishes, before it returns", () =>
    Effect.gen(function*() {
      const { closed, scopes, tool } = keeper()
      const run = () => makeRun(scriptedModel([calls("call-1", "call-2"), calls("call-3"), done]), [tool])

      yield* runCollected(run())
      assert.strictEqual(scopes.size, 1)
      assert.strictEqual(closed.length, 1)
      assert.isTrue(Exit.isSuccess(closed[0]!))
      // The next run's is its own.
      yield* runCollected(run())
      assert.strictEqual(scopes.size, 2)
      assert.strictEqual(closed.length, 2)
    }))

  it.live("closes when the run is interrupted (the client went away) while a tool runs", () =>
    Effect.gen(function*() {
      const { closed, scopes, tool } = keeper(true)
      const fiber = yield* runCollecting(makeRun(scriptedModel([calls("call-1"), done]), [tool])).pipe(
        Effect.forkChild
      )
      yield* waitUntil(() => scopes.size === 1)
      assert.strictEqual(closed.length, 0)
      yield* Fiber.interrupt(fiber)
      assert.strictEqual(closed.length, 1)
      assert.isTrue(Exit.hasInterrupts(closed[0]!))
    }))

  it.live("closes when the request time limit ends the run", () =>
    Effect.gen(function*() {
      const { closed, tool } = keeper(true)
      const { chunks } = yield* runCollecting(
        makeRun(scriptedModel([calls("call-1"), done]), [tool], { timeout: "100 millis" })
      )
      expect(chunks.at(-1)).toMatchObject({ type: "finish", messageMetadata: { finishReason: "timeout" } })
      assert.strictEqual(closed.length, 1)
    }))

  it.live("closes when the model fails after a tool ran", () =>
    Effect.gen(function*() {
      const { closed, tool } = keeper()
      // Broken off mid-answer: not retried.
      const broken = [start, { type: "text-start" as const, id: "t" }, {
        type: "error" as const,
        error: new APICallError({ message: "down", url: "", requestBodyValues: {}, statusCode: 500 })
      }]
      const exit = yield* Effect.exit(runCollected(makeRun(scriptedModel([calls("call-1"), broken]), [tool])))
      expect(upstreamFailure(exit)).toMatchObject({ _tag: "ProviderUnavailable" })
      assert.strictEqual(closed.length, 1)
      assert.isTrue(Exit.isFailure(closed[0]!))
    }))
})
