import { assert, describe, expect, it } from "@effect/vitest"
import type { UIMessageChunk } from "ai"
import { Effect, Fiber } from "effect"
import { Agent } from "../../src/agent/Agent.ts"
import type { ClientPace } from "../../src/agent/ClientPace.ts"
import type { RunEvent } from "../../src/agent/RunEvent.ts"
import { makeTestTool } from "../support/tools.ts"
import { agentLayer, asChunk, finish, makeRun, scriptedModel, start, streamingTo, text, toolCall } from "./fixtures.ts"

/** A client that falls behind when told to and catches up when released. */
const controlledPace = () => {
  let release = () => {}
  let caughtUp = Promise.resolve()
  const pace = {
    behind: false as boolean,
    caughtUp: () => caughtUp,
    fallBehind: () => {
      pace.behind = true
      caughtUp = new Promise<void>((resolve) => {
        release = () => {
          pace.behind = false
          resolve()
        }
      })
    },
    release: () => release()
  } satisfies ClientPace & Record<string, unknown>
  return pace
}

const types = (chunks: ReadonlyArray<UIMessageChunk>) => chunks.map((chunk) => chunk.type)

describe("a run that keeps to its client's pace", () => {
  it.live("holds a tool's output and the next model call while the client is behind", () =>
    Effect.gen(function*() {
      const model = scriptedModel([
        [start, ...toolCall("c1", "echo", `{"text":"hi"}`), finish("tool-calls")],
        [start, ...text("1", "Done"), finish("stop")]
      ])
      const pace = controlledPace()
      let ran = 0
      // The client falls behind while the tool runs.
      const echo = makeTestTool({
        name: "echo",
        execute: (input) =>
          Effect.sync(() => {
            ran++
            pace.fallBehind()
            return input
          })
      })
      const chunks: Array<UIMessageChunk> = []
      const agent = yield* Agent
      const fiber = yield* agent.run(makeRun(model, [echo]), streamingTo(chunks), pace)
        .pipe(
          Effect.forkChild
        )
      yield* Effect.sleep("50 millis")

      assert.strictEqual(ran, 1)
      expect(types(chunks)).not.toContain("tool-output-available")
      assert.strictEqual(model.doStreamCalls.length, 1)

      pace.release()
      yield* Fiber.join(fiber)
      expect(types(chunks)).toContain("tool-output-available")
      assert.strictEqual(model.doStreamCalls.length, 2)
      expect(chunks.at(-1)?.type).toBe("finish")
    }).pipe(Effect.provide(agentLayer)))

  it.live("stops reading the model's answer while the client is behind", () =>
    Effect.gen(function*() {
      const model = scriptedModel([[start, ...text("0", "one", "two", "three"), finish("stop")]])
      const pace = controlledPace()
      const chunks: Array<UIMessageChunk> = []
      const emit = (event: RunEvent) => {
        chunks.push(asChunk(event))
        if (event.type === "text-delta" && event.delta === "one") pace.fallBehind()
      }
      const agent = yield* Agent
      const fiber = yield* agent.run(makeRun(model, []), { ...streamingTo(chunks), emit }, pace).pipe(Effect.forkChild)
      yield* Effect.sleep("50 millis")

      expect(chunks.filter((chunk) => chunk.type === "text-delta")).toHaveLength(1)
      pace.release()
      yield* Fiber.join(fiber)
      expect(chunks.filter((chunk) => chunk.type === "text-delta")).toHaveLength(3)
    }).pipe(Effect.provide(agentLayer)))
})
