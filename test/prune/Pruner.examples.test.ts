import { assert, layer } from "@effect/vitest"
import type { UIMessage } from "ai"
import { Effect } from "effect"
import { Pruner } from "../../src/prune/Pruner.ts"
import { withShortOutputs } from "../../src/prune/stages.ts"
import { counterFor } from "../../src/prune/tokenCount.ts"
import { png, textOf } from "./conversations.ts"

const text = (id: string, role: "user" | "assistant", body: string): UIMessage => ({
  id,
  role,
  parts: [{ type: "text", text: body }]
})
const screenshotStep = (id: string): UIMessage => ({
  id,
  role: "assistant",
  parts: [
    { type: "step-start" },
    { type: "reasoning", text: "Check the screen first." },
    {
      type: "dynamic-tool",
      toolName: "computer",
      toolCallId: `${id}-call`,
      state: "output-available",
      input: { action: "screenshot" },
      output: { type: "content", value: [{ type: "image-data", data: png, mediaType: "image/png" }] }
    },
    { type: "text", text: "The form is open." }
  ]
})
const longOutputStep = (id: string): UIMessage => ({
  id,
  role: "assistant",
  parts: [{
    type: "dynamic-tool",
    toolName: "bash",
    toolCallId: `${id}-call`,
    state: "output-available",
    input: { command: "cat server.log" },
    output: { stdout: textOf(3, 3_000), exit_code: 0 }
  }]
})

const counter = counterFor("o200k_base")
const tokensOf = (messages: ReadonlyArray<UIMessage>) =>
  messages.reduce((total, message) => total + counter.message(message), 0)
const options = (targetTokens: number, preserveRecentMessages = 1) => ({
  maxOutputTokens: 0,
  targetTokens,
  preserveRecentMessages
})

layer(Pruner.layer)("Pruner stages", (it) => {
  const conversation = [
    text("u1", "user", "Fill in the application form."),
    screenshotStep("a1"),
    text("u2", "user", "Now check the logs."),
    longOutputStep("a2"),
    text("u3", "user", "Thanks, what next?")
  ]
  const total = tokensOf(conversation)

  it.effect("replaces old screenshots first when that is enough", () =>
    Effect.gen(function*() {
      const result = yield* (yield* Pruner).prune({
        system: "",
        messages: conversation,
        options: options(total - 1_000)
      })
      assert.strictEqual(result.stage, "images")
      assert.isTrue(result.pruned)
      assert.strictEqual(result.removed, 0)
      assert.notInclude(JSON.stringify(result.messages), png)
      assert.include(JSON.stringify(result.messages[1]), "[image omitted by pruning]")
      assert.strictEqual(result.messages[3], conversation[3])
    }))

  it.effect("then shortens long old tool outputs, keeping their head and tail", () =>
    Effect.gen(function*() {
      const result = yield* (yield* Pruner).prune({
        system: "",
        messages: conversation,
        options: options(total - 2_500)
      })
      assert.strictEqual(result.stage, "tool-outputs")
      assert.strictEqual(result.messages.length, conversation.length)
      assert.include(JSON.stringify(result.messages[3]), "characters omitted by pruning")
      assert.isAtMost(result.tokensAfter, total - 2_500)
    }))

  it.effect("then drops the oldest exchanges, a tool call with its result", () =>
    Effect.gen(function*() {
      const lastTwoExchanges = tokensOf([conversation[2]!, withShortOutputs(conversation[3]!), conversation[4]!])
      const result = yield* (yield* Pruner).prune({
        system: "",
        messages: conversation,
        options: options(lastTwoExchanges)
      })
      assert.strictEqual(result.stage, "messages")
      assert.deepStrictEqual(result.messages.map((m) => m.id), ["u2", "a2", "u3"])
      assert.strictEqual(result.removed, 2)
      assert.strictEqual(result.tokensAfter, lastTwoExchanges)
      assert.include(JSON.stringify(result.messages[1]), "characters omitted by pruning")
      const tighter = yield* (yield* Pruner).prune({
        system: "",
        messages: conversation,
        options: options(lastTwoExchanges - 1)
      })
      assert.deepStrictEqual(tighter.messages.map((m) => m.id), ["u3"])
    }))

  it.effect("never touches the preserved messages, even over budget", () =>
    Effect.gen(function*() {
      const result = yield* (yield* Pruner).prune({ system: "", messages: conversation, options: options(10, 5) })
      assert.strictEqual(result.stage, "none")
      assert.strictEqual(result.messages, conversation)
    }))

  it.effect("counts the tool definitions and the system prompt into the budget", () =>
    Effect.gen(function*() {
      const tools = [{ name: "bash", description: textOf(9, 400), inputSchema: { type: "object" } }]
      const pruner = yield* Pruner
      const without = yield* pruner.prune({ system: "", messages: conversation, options: options(total) })
      assert.strictEqual(without.stage, "none")
      const withTools = yield* pruner.prune({ system: "", messages: conversation, tools, options: options(total) })
      assert.notStrictEqual(withTools.stage, "none")
      assert.strictEqual(withTools.tokensAfter - tokensOf(withTools.messages), counter.tools(tools))
      const withSystem = yield* pruner.prune({
        system: textOf(1, 400),
        messages: conversation,
        options: options(total)
      })
      assert.notStrictEqual(withSystem.stage, "none")
    }))

  it.effect("counts with the model's tokenizer", () =>
    Effect.gen(function*() {
      const pruner = yield* Pruner
      const exact = yield* pruner.prune({
        system: "",
        messages: conversation,
        options: options(total),
        tokenizer: "o200k_base"
      })
      assert.strictEqual(exact.stage, "none")
      const approximate = yield* pruner.prune({
        system: "",
        messages: conversation,
        options: options(total),
        tokenizer: "approximate"
      })
      assert.notStrictEqual(approximate.stage, "none")
    }))
})

layer(Pruner.layer)("Pruner budget", (it) => {
  it.effect("is the target capped by the window minus the output reserve", () =>
    Effect.gen(function*() {
      const pruner = yield* Pruner
      const messages: Array<UIMessage> = Array.from({ length: 10 }, (_, i) =>
        text(String(i), i % 2 === 0 ? "user" : "assistant", "lorem ipsum dolor sit amet ".repeat(20)))
      const budget = { maxOutputTokens: 2_200, targetTokens: 2_000, preserveRecentMessages: 0 }
      const roomy = yield* pruner.prune({ system: "", messages, options: budget, contextWindow: 100_000 })
      assert.isFalse(roomy.pruned)
      const tight = yield* pruner.prune({ system: "", messages, options: budget, contextWindow: 2_500 })
      assert.isTrue(tight.pruned)
      assert.isAtMost(tight.tokensAfter, 300)
    }))

  it.effect.each(
    [
      [
        { targetTokens: 200_000, maxOutputTokens: 1_000 },
        "pruneOptions.targetTokens (200000) exceeds the model's context window of 128000 tokens"
      ],
      [
        { targetTokens: 80_000, maxOutputTokens: 128_000 },
        "pruneOptions.maxOutputTokens (128000) leaves no room for input in the model's context window of 128000 tokens"
      ]
    ] as const
  )("rejects options the window cannot hold: %s", ([budget, message]) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip((yield* Pruner).prune({
        system: "",
        messages: [],
        options: { ...budget, preserveRecentMessages: 3 },
        contextWindow: 128_000
      }))
      assert.include(["TargetExceedsWindow", "NoRoomForInput"], error._tag)
      assert.strictEqual(error.message, message)
    }))

  it.effect("a huge history costs what the budget costs", () =>
    Effect.gen(function*() {
      // 1,000 messages of 1,000 distinct words each: tokenizing all of it takes seconds.
      const messages: Array<UIMessage> = Array.from({ length: 1_000 }, (_, i) =>
        text(String(i), i % 2 === 0 ? "user" : "assistant", textOf(i, 1_000)))
      const pruner = yield* Pruner
      const start = performance.now()
      const result = yield* pruner.prune({ system: "", messages, options: options(20_000) })
      assert.isBelow(performance.now() - start, 1_000)
      assert.strictEqual(result.stage, "messages")
      assert.isAtMost(result.tokensAfter, 20_000)
      assert.strictEqual(result.removed, 1_000 - result.messages.length)
    }))
})
