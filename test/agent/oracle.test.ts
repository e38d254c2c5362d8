import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { asModel, makeRun, runChunks, scriptedModel, userMessage } from "./fixtures.ts"
import { normalize, referenceRun } from "./oracle.ts"
import { scenarios, tools } from "./scenarios.ts"

describe("Agent.run matches streamText + toUIMessageStream", () => {
  for (const scenario of scenarios) {
    it.live(scenario.name, () =>
      Effect.gen(function*() {
        const maxSteps = scenario.maxSteps ?? 30
        const messages = [userMessage("Hi")]
        const model = scriptedModel(scenario.script)
        const chunks = yield* runChunks(makeRun(model, tools, { messages: yield* asModel(messages), maxSteps }))
        const referenceModel = scriptedModel(scenario.script)
        const reference = yield* Effect.promise(() =>
          referenceRun(referenceModel, tools, { system: "You are a test assistant.", messages, maxSteps })
        )

        assert.isUndefined(reference.thrown)
        expect(normalize(chunks)).toEqual(normalize(reference.chunks))
        // The model saw the same prompts, tools and settings at every step.
        assert.strictEqual(model.doStreamCalls.length, referenceModel.doStreamCalls.length)
        model.doStreamCalls.forEach((call, step) => {
          const expected = referenceModel.doStreamCalls[step]!
          expect(call.prompt).toEqual(expected.prompt)
          expect(call.tools).toEqual(expected.tools)
          expect(call.toolChoice).toEqual(expected.toolChoice)
        })
      }))
  }
})
