import { assert, layer } from "@effect/vitest"
import type { ModelMessage } from "ai"
import { Effect } from "effect"
import { Pruner } from "../../src/prune/Pruner.ts"
import { withoutImages, withShortOutputs } from "../../src/prune/stages.ts"
import { scenarios } from "./conversations.ts"
import { type Conversation, preservedTail, type Scenario, staged, tokensOf, unitsOf } from "./units.ts"

const optionsOf = (scenario: Scenario) => ({
  system: scenario.system,
  messages: scenario.messages,
  origins: scenario.origins,
  tools: scenario.tools,
  tokenizer: scenario.tokenizer,
  options: {
    maxOutputTokens: 0,
    targetTokens: scenario.targetTokens,
    preserveRecentMessages: scenario.preserveRecentMessages
  }
})

const prune = (scenario: Scenario) =>
  Effect.gen(function*() {
    return yield* (yield* Pruner).prune(optionsOf(scenario))
  })

const pinned = (conversation: Conversation) => unitsOf(conversation).filter((unit) => unit.role === "system")
const history = (conversation: Conversation) => unitsOf(conversation).filter((unit) => unit.role !== "system")
/** What must be sent whatever pruning does. */
const floorOf = (scenario: Scenario) =>
  tokensOf(
    scenario,
    [
      ...pinned(scenario),
      ...preservedTail(scenario, scenario.preserveRecentMessages)
    ].flatMap((unit) => unit.messages)
  )

const shapeOf = (message: ModelMessage) =>
  `${message.role}:${typeof message.content === "string" ? "string" : message.content.map((part) => part.type)}`

layer(Pruner.layer)("Pruner over generated conversations", (it) => {
  it.effect.prop(
    "keeps order, roles and the steps of every kept client message whole; system messages stay",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        const original = new Map(unitsOf(scenario).map((unit) => [unit.origin, unit]))
        let last = -1
        for (const unit of unitsOf(result)) {
          assert.isAbove(unit.origin, last)
          last = unit.origin
          // Reasoning, text and tool parts stay in their step: only tool outputs may change.
          assert.deepStrictEqual(unit.messages.map(shapeOf), original.get(unit.origin)!.messages.map(shapeOf))
        }
        for (const unit of pinned(scenario)) {
          for (const message of unit.messages) assert.include(result.messages, message)
        }
      })
  )

  it.effect.prop("leaves the preserved tail untouched", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const result = yield* prune(scenario)
      const tail = preservedTail(scenario, scenario.preserveRecentMessages).flatMap((unit) => unit.messages)
      const kept = history(result).flatMap((unit) => unit.messages)
      assert.isAtLeast(kept.length, tail.length)
      tail.forEach((message, index) => assert.strictEqual(kept[kept.length - tail.length + index], message))
    }))

  it.effect.prop(
    "fits the budget whenever the preserved tail does, and reports exact tokens after",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        assert.strictEqual(result.tokensAfter, tokensOf(scenario, result.messages))
        if (floorOf(scenario) <= scenario.targetTokens) assert.isAtMost(result.tokensAfter, scenario.targetTokens)
      })
  )

  it.effect.prop(
    "leaves no tool result without its call, and no answered call without its result",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        const partsOf = (messages: ReadonlyArray<ModelMessage>, type: string) =>
          messages.flatMap((message): ReadonlyArray<{ readonly type: string; readonly toolCallId?: string }> =>
            typeof message.content === "string" ? [] : message.content
          ).filter((part) => part.type === type)
        const calls = new Set<string>()
        for (const message of result.messages) {
          for (const part of partsOf([message], "tool-call")) calls.add(part.toolCallId!)
          for (const part of partsOf([message], "tool-result")) assert.isTrue(calls.has(part.toolCallId!))
        }
        const kept = new Set(result.origins)
        const keptBefore = scenario.messages.filter((_, index) => kept.has(scenario.origins[index]!))
        assert.strictEqual(partsOf(result.messages, "tool-result").length, partsOf(keptBefore, "tool-result").length)
      })
  )

  it.effect.prop(
    "prunes nothing under budget; otherwise uses the cheapest stage that fits",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        const asIs = tokensOf(scenario, scenario.messages)
        if (asIs <= scenario.targetTokens) {
          assert.strictEqual(result.stage, "none")
          assert.strictEqual(result.messages, scenario.messages)
          assert.strictEqual(result.tokensAfter, asIs)
        }
        if (result.stage === "none") {
          assert.isFalse(result.pruned)
          assert.strictEqual(result.messages, scenario.messages)
          assert.strictEqual(result.origins, scenario.origins)
          return
        }
        assert.isTrue(result.pruned)
        assert.isAbove(asIs, scenario.targetTokens)
        const sent = { messages: result.messages, origins: result.origins }
        const imagesGone = tokensOf(scenario, staged(scenario, withoutImages).messages)
        const outputsCut = tokensOf(scenario, staged(scenario, withShortOutputs).messages)
        if (result.stage === "images") assert.deepStrictEqual(sent, staged(scenario, withoutImages))
        if (result.stage === "tool-outputs") {
          assert.isAbove(imagesGone, scenario.targetTokens)
          assert.deepStrictEqual(sent, staged(scenario, withShortOutputs))
        }
        if (result.stage === "messages") {
          assert.isAbove(outputsCut, scenario.targetTokens)
          assert.deepStrictEqual(sent, staged(scenario, withShortOutputs, result.removed))
        }
        assert.strictEqual(result.removed, unitsOf(scenario).length - unitsOf(result).length)
      })
  )

  it.effect.prop(
    "drops no more than needed, and never leaves a reply whose question was dropped",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        if (result.stage !== "messages") return
        assert.strictEqual(history(result)[0]?.role, "user")
        const older = history(scenario).slice(0, result.removed)
        const previousCut = older.findLastIndex((unit) => unit.role === "user")
        if (previousCut === -1) return
        const longer = staged(scenario, withShortOutputs, previousCut).messages
        assert.isAbove(tokensOf(scenario, longer), scenario.targetTokens)
      })
  )

  it.effect.prop(
    "a preview reports what pruning does, with the tokens before counted exactly",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        const preview = yield* (yield* Pruner).preview({
          ...optionsOf(scenario),
          messages: structuredClone(scenario.messages)
        })
        assert.deepStrictEqual(preview, {
          tokensBefore: tokensOf(scenario, scenario.messages),
          tokensAfter: result.tokensAfter,
          messagesRemoved: result.removed,
          stage: result.stage
        })
      })
  )

  it.effect.prop("pruning twice equals pruning once", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const once = yield* prune(scenario)
      const twice = yield* prune({ ...scenario, messages: structuredClone(once.messages), origins: once.origins })
      assert.deepStrictEqual(twice.messages, once.messages)
      assert.deepStrictEqual(twice.origins, once.origins)
      assert.strictEqual(twice.stage, "none")
      assert.strictEqual(twice.tokensAfter, once.tokensAfter)
    }))
})
