import { assert, layer } from "@effect/vitest"
import type { ModelMessage } from "ai"
import { Effect } from "effect"
import { Pruner } from "../../src/prune/Pruner.ts"
import { withShortOutputs } from "../../src/prune/stages.ts"
import { counterFor } from "../../src/prune/tokenCount.ts"
import { png, textOf } from "./conversations.ts"

type Turn = ReadonlyArray<ModelMessage>

const text = (role: "user" | "assistant", body: string): Turn => [{ role, content: [{ type: "text", text: body }] }]
const screenshotStep = (id: string): Turn => [
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "Check the screen first." },
      { type: "tool-call", toolCallId: `${id}-call`, toolName: "computer", input: { action: "screenshot" } },
      { type: "text", text: "The form is open." }
    ]
  },
  {
    role: "tool",
    content: [{
      type: "tool-result",
      toolCallId: `${id}-call`,
      toolName: "computer",
      output: {
        type: "json",
        value: { type: "content", value: [{ type: "image-data", data: png, mediaType: "image/png" }] }
      }
    }]
  }
]
const longOutputStep = (id: string): Turn => [
  {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: `${id}-call`, toolName: "bash", input: { command: "cat server.log" } }]
  },
  {
    role: "tool",
    content: [{
      type: "tool-result",
      toolCallId: `${id}-call`,
      toolName: "bash",
      output: { type: "json", value: { stdout: textOf(3, 3_000), exit_code: 0 } }
    }]
  }
]

/** The client messages' model messages, each with the index of its client message. */
const conversationOf = (turns: ReadonlyArray<Turn>) => ({
  messages: turns.flat(),
  origins: turns.flatMap((turn, index) => turn.map(() => index))
})

const counter = counterFor("o200k_base")
const tokensOf = (messages: ReadonlyArray<ModelMessage>) =>
  messages.reduce((total, message) => total + counter.message(message), 0)
const options = (targetTokens: number, preserveRecentMessages = 1) => ({
  maxOutputTokens: 0,
  targetTokens,
  preserveRecentMessages
})

layer(Pruner.layer)("Pruner stages", (it) => {
  const turns = [
    text("user", "Fill in the application form."),
    screenshotStep("a1"),
    text("user", "Now check the logs."),
    longOutputStep("a2"),
    text("user", "Thanks, what next?")
  ]
  const conversation = conversationOf(turns)
  const total = tokensOf(conversation.messages)

  it.effect("replaces old screenshots first when that is enough", () =>
    Effect.gen(function*() {
      const result = yield* (yield* Pruner).prune({
        system: "",
        ...conversation,
        options: options(total - 1_000)
      })
      assert.strictEqual(result.stage, "images")
      assert.isTrue(result.pruned)
      assert.strictEqual(result.removed, 0)
      assert.notInclude(JSON.stringify(result.messages), png)
      assert.include(JSON.stringify(result.messages[2]), "[image omitted by pruning]")
      // The call's message is as it was, and so is the long output the budget did not need shortened.
      assert.strictEqual(result.messages[1], conversation.messages[1])
      assert.strictEqual(result.messages[5], conversation.messages[5])
      assert.deepStrictEqual(result.origins, conversation.origins)
    }))

  it.effect("then shortens long old tool outputs, keeping their head and tail", () =>
    Effect.gen(function*() {
      const result = yield* (yield* Pruner).prune({
        system: "",
        ...conversation,
        options: options(total - 2_500)
      })
      assert.strictEqual(result.stage, "tool-outputs")
      assert.deepStrictEqual(result.origins, conversation.origins)
      assert.include(JSON.stringify(result.messages[5]), "characters omitted by pruning")
      assert.isAtMost(result.tokensAfter, total - 2_500)
    }))

  it.effect("then drops the oldest exchanges, a tool call with its result", () =>
    Effect.gen(function*() {
      const lastTwoExchanges = tokensOf([...turns[2]!, ...turns[3]!.map(withShortOutputs), ...turns[4]!])
      const result = yield* (yield* Pruner).prune({
        system: "",
        ...conversation,
        options: options(lastTwoExchanges)
      })
      assert.strictEqual(result.stage, "messages")
      assert.deepStrictEqual(result.origins, [2, 3, 3, 4])
      assert.strictEqual(result.removed, 2)
      assert.strictEqual(result.tokensAfter, lastTwoExchanges)
      assert.strictEqual(result.messages[1], turns[3]![0])
      assert.include(JSON.stringify(result.messages[2]), "characters omitted by pruning")
      const tighter = yield* (yield* Pruner).prune({
        system: "",
        ...conversation,
        options: options(lastTwoExchanges - 1)
      })
      assert.deepStrictEqual(tighter.origins, [4])
    }))

  it.effect("never touches the preserved messages, even over budget", () =>
    Effect.gen(function*() {
      const result = yield* (yield* Pruner).prune({ system: "", ...conversation, options: options(10, 5) })
      assert.strictEqual(result.stage, "none")
      assert.strictEqual(result.messages, conversation.messages)
    }))

  it.effect("counts the tool definitions and the system prompt into the budget", () =>
    Effect.gen(function*() {
      const tools = [{ name: "bash", description: textOf(9, 400), inputSchema: { type: "object" } }]
      const pruner = yield* Pruner
      const without = yield* pruner.prune({ system: "", ...conversation, options: options(total) })
      assert.strictEqual(without.stage, "none")
      const withTools = yield* pruner.prune({ system: "", ...conversation, tools, options: options(total) })
      assert.notStrictEqual(withTools.stage, "none")
      assert.strictEqual(withTools.tokensAfter - tokensOf(withTools.messages), counter.tools(tools))
      const withSystem = yield* pruner.prune({
        system: textOf(1, 400),
        ...conversation,
        options: options(total)
      })
      assert.notStrictEqual(withSystem.stage, "none")
    }))

  it.effect("counts with the model's tokenizer", () =>
    Effect.gen(function*() {
      const pruner = yield* Pruner
      const exact = yield* pruner.prune({
        system: "",
        ...conversation,
        options: options(total),
        tokenizer: "o200k_base"
      })
      assert.strictEqual(exact.stage, "none")
      const approximate = yield* pruner.prune({
        system: "",
        ...conversation,
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
      const messages = conversationOf(Array.from({ length: 10 }, (_, i) =>
        text(i % 2 === 0 ? "user" : "assistant", "lorem ipsum dolor sit amet ".repeat(20))))
      const budget = { maxOutputTokens: 2_200, targetTokens: 2_000, preserveRecentMessages: 0 }
      const roomy = yield* pruner.prune({ system: "", ...messages, options: budget, contextWindow: 100_000 })
      assert.isFalse(roomy.pruned)
      const tight = yield* pruner.prune({ system: "", ...messages, options: budget, contextWindow: 2_500 })
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
        origins: [],
        options: { ...budget, preserveRecentMessages: 3 },
        contextWindow: 128_000
      }))
      assert.include(["TargetExceedsWindow", "NoRoomForInput"], error._tag)
      assert.strictEqual(error.message, message)
    }))

  it.effect("a huge history costs what the budget costs", () =>
    Effect.gen(function*() {
      // 1,000 messages of 1,000 distinct words each: tokenizing all of it takes seconds.
      const history = conversationOf(
        Array.from({ length: 1_000 }, (_, i) => text(i % 2 === 0 ? "user" : "assistant", textOf(i, 1_000)))
      )
      const pruner = yield* Pruner
      const start = performance.now()
      const result = yield* pruner.prune({ system: "", ...history, options: options(20_000) })
      assert.isBelow(performance.now() - start, 1_000)
      assert.strictEqual(result.stage, "messages")
      assert.isAtMost(result.tokensAfter, 20_000)
      assert.strictEqual(result.removed, 1_000 - result.messages.length)
      assert.deepStrictEqual(result.origins, history.origins.slice(result.removed))
    }))
})
