import { assert, layer } from "@effect/vitest"
import { convertToModelMessages, type UIMessage } from "ai"
import { Effect } from "effect"
import { Pruner } from "../../src/prune/Pruner.ts"
import { withoutImages, withShortOutputs } from "../../src/prune/stages.ts"
import { preservedTail, type Scenario, scenarios, staged, tokensOf } from "./conversations.ts"

const prune = (scenario: Scenario) =>
  Effect.gen(function*() {
    const pruner = yield* Pruner
    return yield* pruner.prune({
      system: scenario.system,
      messages: scenario.messages,
      tools: scenario.tools,
      tokenizer: scenario.tokenizer,
      options: {
        maxOutputTokens: 0,
        targetTokens: scenario.targetTokens,
        preserveRecentMessages: scenario.preserveRecentMessages
      }
    })
  })

const pinned = (messages: ReadonlyArray<UIMessage>) => messages.filter((message) => message.role === "system")
const history = (messages: ReadonlyArray<UIMessage>) => messages.filter((message) => message.role !== "system")
/** What must be sent whatever pruning does. */
const floorOf = (scenario: Scenario) =>
  tokensOf(scenario, [
    ...pinned(scenario.messages),
    ...preservedTail(scenario.messages, scenario.preserveRecentMessages)
  ])

const partTypes = (message: UIMessage) => message.parts.map((part) => part.type).join(",")

layer(Pruner.layer)("Pruner over generated conversations", (it) => {
  it.effect.prop(
    "keeps order, roles and the steps of every kept message; system messages stay",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        const byId = new Map(scenario.messages.map((message, index) => [message.id, { message, index }]))
        let last = -1
        for (const message of result.messages) {
          const original = byId.get(message.id)!
          assert.isAbove(original.index, last)
          last = original.index
          assert.strictEqual(message.role, original.message.role)
          // Reasoning, text and tool parts stay in their step: only tool outputs may change.
          assert.strictEqual(partTypes(message), partTypes(original.message))
        }
        for (const message of pinned(scenario.messages)) assert.include(result.messages, message)
      })
  )

  it.effect.prop("leaves the preserved tail untouched", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const result = yield* prune(scenario)
      const tail = preservedTail(scenario.messages, scenario.preserveRecentMessages)
      const kept = history(result.messages)
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
        const sent = yield* Effect.promise(() => convertToModelMessages([...result.messages]))
        const calls = new Set<string>()
        for (const message of sent) {
          if (message.role === "assistant" && typeof message.content !== "string") {
            for (const part of message.content) if (part.type === "tool-call") calls.add(part.toolCallId)
          }
          if (message.role === "tool") {
            for (const part of message.content) {
              if (part.type === "tool-result") assert.isTrue(calls.has(part.toolCallId))
            }
          }
        }
        const answered = (messages: ReadonlyArray<UIMessage>) =>
          messages.flatMap((message) => message.parts).filter((part) =>
            "state" in part && part.state.startsWith("output")
          ).length
        const keptIds = new Set(result.messages.map((message) => message.id))
        assert.strictEqual(
          answered(result.messages),
          answered(scenario.messages.filter((message) => keptIds.has(message.id)))
        )
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
          return
        }
        assert.isTrue(result.pruned)
        assert.isAbove(asIs, scenario.targetTokens)
        const imagesGone = tokensOf(scenario, staged(scenario, withoutImages))
        const outputsCut = tokensOf(scenario, staged(scenario, withShortOutputs))
        if (result.stage === "images") assert.deepStrictEqual(result.messages, staged(scenario, withoutImages))
        if (result.stage === "tool-outputs") {
          assert.isAbove(imagesGone, scenario.targetTokens)
          assert.deepStrictEqual(result.messages, staged(scenario, withShortOutputs))
        }
        if (result.stage === "messages") {
          assert.isAbove(outputsCut, scenario.targetTokens)
          assert.deepStrictEqual(result.messages, staged(scenario, withShortOutputs, result.removed))
        }
        assert.strictEqual(result.removed, scenario.messages.length - result.messages.length)
      })
  )

  it.effect.prop(
    "drops no more than needed, and never leaves a reply whose question was dropped",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        if (result.stage !== "messages") return
        assert.strictEqual(history(result.messages)[0]?.role, "user")
        const older = history(scenario.messages).slice(0, result.removed)
        const previousCut = older.findLastIndex((message) => message.role === "user")
        if (previousCut === -1) return
        assert.isAbove(tokensOf(scenario, staged(scenario, withShortOutputs, previousCut)), scenario.targetTokens)
      })
  )

  it.effect.prop(
    "a preview reports what pruning does, with the tokens before counted exactly",
    [scenarios],
    ([scenario]) =>
      Effect.gen(function*() {
        const result = yield* prune(scenario)
        const preview = yield* (yield* Pruner).preview({
          system: scenario.system,
          messages: structuredClone(scenario.messages),
          tools: scenario.tools,
          tokenizer: scenario.tokenizer,
          options: {
            maxOutputTokens: 0,
            targetTokens: scenario.targetTokens,
            preserveRecentMessages: scenario.preserveRecentMessages
          }
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
      const twice = yield* prune({ ...scenario, messages: structuredClone(once.messages) })
      assert.deepStrictEqual(twice.messages, once.messages)
      assert.strictEqual(twice.stage, "none")
      assert.strictEqual(twice.tokensAfter, once.tokensAfter)
    }))
})
