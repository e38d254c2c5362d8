import { assert, layer } from "@effect/vitest"
import type { UIMessage } from "ai"
import { Arbitrary, Effect, Schema } from "effect"
import { BadRequest } from "../../src/domain/errors.ts"
import type { PruneOptions } from "../../src/domain/PruneOptions.ts"
import { Pruner } from "../../src/prune/Pruner.ts"
import { countMessage, countSystem } from "../../src/prune/tokenCount.ts"

const TextPart = Schema.Struct({ type: Schema.Literal("text"), text: Schema.String })
const ToolPart = Schema.Struct({
  type: Schema.Literal("dynamic-tool"),
  toolName: Schema.Literals(["bash", "browser"]),
  toolCallId: Schema.String,
  state: Schema.Literal("output-available"),
  input: Schema.Record(Schema.String, Schema.Json),
  output: Schema.Json
})
const FilePart = Schema.Struct({ type: Schema.Literal("file"), mediaType: Schema.Literal("image/png"), url: Schema.String })
const GeneratedMessage = Schema.Struct({
  id: Schema.String,
  role: Schema.Literals(["user", "assistant", "user", "assistant", "system"]),
  parts: Schema.NonEmptyArray(Schema.Union([TextPart, TextPart, ToolPart, FilePart]))
})

const tokensOf = (system: string, messages: ReadonlyArray<UIMessage>) =>
  messages.reduce((total, message) => total + countMessage(message), countSystem(system))

/**
 * A conversation and a budget within a few tokens of what some suffix of it
 * costs, so that cuts land anywhere and budgets sit on the boundaries.
 */
const scenarios = Arbitrary.all({
  system: Arbitrary.schema(Schema.String),
  // Generated structurally as UIMessages; the schema's readonly types are narrower than the AI SDK's.
  messages: Arbitrary.array(Arbitrary.schema(GeneratedMessage), { maxLength: 16 }) as unknown as Arbitrary.Arbitrary<
    Array<UIMessage>
  >,
  suffixPercent: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 }))),
  slack: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: -3, maximum: 3 }))),
  preserveRecentMessages: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 5 })))
}).pipe(Arbitrary.map(({ slack, suffixPercent, ...scenario }) => {
  const start = Math.floor(scenario.messages.length * suffixPercent / 100)
  const pinned = scenario.messages.slice(0, start).filter((message) => message.role === "system")
  const suffix = tokensOf(scenario.system, [...pinned, ...scenario.messages.slice(start)])
  return { ...scenario, targetTokens: Math.max(0, suffix + slack) }
}))
type Scenario = typeof scenarios extends Arbitrary.Arbitrary<infer A> ? A : never

const optionsOf = (scenario: Scenario): PruneOptions => ({
  maxOutputTokens: 0,
  targetTokens: scenario.targetTokens,
  preserveRecentMessages: scenario.preserveRecentMessages
})

const prune = (scenario: Scenario) =>
  Effect.gen(function*() {
    const pruner = yield* Pruner
    return yield* pruner.prune({ system: scenario.system, messages: scenario.messages, options: optionsOf(scenario) })
  })

/** The messages pruning must keep: the last N (at least one) non-system ones, back to a user message. */
const preservedTail = (scenario: Scenario): ReadonlyArray<UIMessage> => {
  const history = scenario.messages.filter((message) => message.role !== "system")
  let start = Math.max(0, history.length - Math.max(1, scenario.preserveRecentMessages))
  while (start > 0 && history[start]!.role !== "user") start--
  return history.slice(start)
}

const isSubsequence = (part: ReadonlyArray<UIMessage>, whole: ReadonlyArray<UIMessage>) => {
  let index = 0
  for (const message of whole) if (message === part[index]) index++
  return index === part.length
}

layer(Pruner.layer)("Pruner", (it) => {
  it.effect.prop("keeps order, system messages and the preserved tail; reports exact tokens after", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const result = yield* prune(scenario)
      assert.isTrue(isSubsequence(result.messages, scenario.messages))
      const tail = preservedTail(scenario)
      const kept = result.messages.filter((message) => message.role !== "system")
      assert.isTrue(tail.every((message, index) => kept[kept.length - tail.length + index] === message))
      assert.isTrue(scenario.messages.filter((m) => m.role === "system").every((message) => result.messages.includes(message)))
      assert.strictEqual(result.tokensAfter, tokensOf(scenario.system, result.messages))
      assert.strictEqual(result.removed, scenario.messages.length - result.messages.length)
      assert.strictEqual(result.pruned, result.removed > 0)
    }))

  it.effect.prop("fits the budget whenever the preserved tail does", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const result = yield* prune(scenario)
      const pinned = scenario.messages.filter((message) => message.role === "system")
      if (tokensOf(scenario.system, [...pinned, ...preservedTail(scenario)]) <= scenario.targetTokens) {
        assert.isAtMost(result.tokensAfter, scenario.targetTokens)
      }
    }))

  it.effect.prop("removes no more than needed: the next older exchange would not fit", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const result = yield* prune(scenario)
      if (!result.pruned) return
      const history = scenario.messages.filter((message) => message.role !== "system")
      const cut = history.length - result.messages.filter((message) => message.role !== "system").length
      const previousCut = history.slice(0, cut).findLastIndex((message) => message.role === "user")
      if (previousCut === -1) return
      const pinned = scenario.messages.filter((message) => message.role === "system")
      assert.isAbove(tokensOf(scenario.system, [...pinned, ...history.slice(previousCut)]), scenario.targetTokens)
    }))

  it.effect.prop("prunes nothing under budget, and only then reports exact tokens before", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const result = yield* prune(scenario)
      const total = tokensOf(scenario.system, scenario.messages)
      if (total <= scenario.targetTokens) {
        assert.isFalse(result.pruned)
        assert.strictEqual(result.messages, scenario.messages)
      }
      if (!result.pruned) assert.strictEqual(result.tokensBefore, total)
      else assert.isAbove(result.tokensBefore, result.tokensAfter)
    }))

  it.effect.prop("never leaves the history starting with a reply whose question was removed", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const result = yield* prune(scenario)
      if (result.pruned) assert.strictEqual(result.messages.find((m) => m.role !== "system")?.role, "user")
    }))

  it.effect.prop("pruning twice equals pruning once", [scenarios], ([scenario]) =>
    Effect.gen(function*() {
      const once = yield* prune(scenario)
      const twice = yield* prune({ ...scenario, messages: [...once.messages] })
      assert.deepStrictEqual(twice.messages, once.messages)
      assert.isFalse(twice.pruned)
    }))

  it.effect("removes the oldest exchanges first and keeps a tool call with its result", () =>
    Effect.gen(function*() {
      const text = (id: string, role: "user" | "assistant", body: string): UIMessage => ({
        id,
        role,
        parts: [{ type: "text", text: body }]
      })
      const toolStep: UIMessage = {
        id: "a2",
        role: "assistant",
        parts: [
          { type: "dynamic-tool", toolName: "bash", toolCallId: "c", state: "output-available", input: { command: "ls" }, output: "x" },
          { type: "text", text: "Listed." }
        ]
      }
      const long = "word ".repeat(200)
      const messages = [text("u1", "user", long), text("a1", "assistant", long), text("u2", "user", "list"), toolStep, text("u3", "user", "thanks")]
      const budget = tokensOf("", messages.slice(2))
      const pruner = yield* Pruner
      const result = yield* pruner.prune({
        system: "",
        messages,
        options: { maxOutputTokens: 0, targetTokens: budget, preserveRecentMessages: 1 }
      })
      assert.deepStrictEqual(result.messages.map((m) => m.id), ["u2", "a2", "u3"])
      assert.strictEqual(result.messages[1], toolStep)
      // One token less and the cut cannot land before the reply a2: the whole exchange goes.
      const tighter = yield* pruner.prune({
        system: "",
        messages,
        options: { maxOutputTokens: 0, targetTokens: budget - 1, preserveRecentMessages: 1 }
      })
      assert.deepStrictEqual(tighter.messages.map((m) => m.id), ["u3"])
    }))

  it.effect("budget is the target capped by the window minus the output reserve", () =>
    Effect.gen(function*() {
      const pruner = yield* Pruner
      const messages: Array<UIMessage> = Array.from({ length: 10 }, (_, i) => ({
        id: String(i),
        role: i % 2 === 0 ? "user" : "assistant",
        parts: [{ type: "text", text: "lorem ipsum dolor sit amet ".repeat(20) }]
      }))
      const options = { maxOutputTokens: 2_200, targetTokens: 2_000, preserveRecentMessages: 0 }
      const roomy = yield* pruner.prune({ system: "", messages, options, contextWindow: 100_000 })
      assert.isFalse(roomy.pruned)
      const tight = yield* pruner.prune({ system: "", messages, options, contextWindow: 2_500 })
      assert.isTrue(tight.pruned)
      assert.isAtMost(tight.tokensAfter, 300)
    }))

  it.effect.each([
    [{ targetTokens: 200_000, maxOutputTokens: 1_000 }, "pruneOptions.targetTokens (200000) exceeds the model's context window of 128000 tokens"],
    [
      { targetTokens: 80_000, maxOutputTokens: 128_000 },
      "pruneOptions.maxOutputTokens (128000) leaves no room for input in the model's context window of 128000 tokens"
    ]
  ] as const)("rejects options the window cannot hold: %s", ([options, message]) =>
    Effect.gen(function*() {
      const pruner = yield* Pruner
      const error = yield* Effect.flip(pruner.prune({
        system: "",
        messages: [],
        options: { ...options, preserveRecentMessages: 3 },
        contextWindow: 128_000
      }))
      assert.instanceOf(error, BadRequest)
      assert.strictEqual(error.message, message)
    }))

  it.effect("counts from the newest message back: a huge history costs what the budget costs", () =>
    Effect.gen(function*() {
      let seed = 11
      const randomWord = () =>
        Array.from({ length: 6 }, () => {
          seed = (seed * 1103515245 + 12345) % 2 ** 31
          return String.fromCharCode(97 + (seed % 26))
        }).join("")
      // 1,000 messages of distinct words: tokenizing all of it takes seconds.
      const messages: Array<UIMessage> = Array.from({ length: 1_000 }, (_, i) => ({
        id: String(i),
        role: i % 2 === 0 ? "user" : "assistant",
        parts: [{ type: "text", text: Array.from({ length: 1_000 }, randomWord).join(" ") }]
      }))
      const pruner = yield* Pruner
      const start = performance.now()
      const result = yield* pruner.prune({
        system: "",
        messages,
        options: { maxOutputTokens: 0, targetTokens: 20_000, preserveRecentMessages: 1 }
      })
      assert.isBelow(performance.now() - start, 1_000)
      assert.isTrue(result.pruned)
      assert.isAtMost(result.tokensAfter, 20_000)
      assert.isAbove(result.tokensBefore, 1_000 * 1_000)
    }))
})
