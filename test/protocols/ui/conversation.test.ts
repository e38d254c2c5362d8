import { assert, describe, expect, it } from "@effect/vitest"
import { convertToModelMessages, type UIMessage } from "ai"
import { Effect, Schema } from "effect"
import { uiConversation } from "../../../src/protocols/ui/conversation.ts"

const texts = Schema.Array(Schema.Array(Schema.Union([Schema.String, Schema.Literal("")])))
const user = (text: string, id = text): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] })
const tool = (toolCallId: string, state: string, extra: Record<string, unknown> = {}) => ({
  type: "dynamic-tool",
  toolName: "echo",
  toolCallId,
  state,
  input: { text: "hi" },
  ...extra
})
const assistant = (id: string, ...parts: Array<Record<string, unknown>>): UIMessage =>
  ({ id, role: "assistant", parts }) as unknown as UIMessage

describe("the ui protocol's conversation (docs/DESIGN.md §14)", () => {
  it.effect.prop(
    "user messages of text are what the AI SDK's conversion makes, one model message each",
    [texts],
    ([parts]) =>
      Effect.gen(function*() {
        const messages = parts.map((texts, i): UIMessage => ({
          id: `m${i}`,
          role: "user",
          parts: texts.map((text) => ({ type: "text" as const, text }))
        }))
        const conversation = yield* uiConversation(messages)
        assert.deepStrictEqual(conversation.messages, yield* Effect.promise(() => convertToModelMessages(messages)))
        assert.deepStrictEqual(conversation.origins, messages.map((_, i) => i))
      })
  )

  it.effect("a turn's steps and results are model messages of its one client message; superseded requests are dropped", () =>
    Effect.gen(function*() {
      const messages = [
        user("Hi"),
        assistant(
          "a1",
          { type: "text", text: "Calling" },
          tool("c1", "output-available", { output: "hi" }),
          { type: "step-start" },
          tool("c2", "approval-requested", { approval: { id: "ap" } })
        ),
        user("Never mind"),
        assistant("a2", { type: "text", text: "OK" })
      ]
      const conversation = yield* uiConversation(messages)
      assert.deepStrictEqual(conversation.messages, yield* Effect.promise(() => convertToModelMessages(messages)))
      assert.deepStrictEqual(conversation.origins, [0, 1, 1, 2, 3])
      assert.isUndefined(conversation.conversationProblem)
      assert.deepStrictEqual(conversation.approvals, [])
    }))

  it.effect("the answers of the last message are the run's to carry out, and the run continues that message", () =>
    Effect.gen(function*() {
      const answered = tool("c1", "approval-responded", { approval: { id: "ap", approved: true } })
      const conversation = yield* uiConversation([user("Hi"), assistant("a1", answered)])
      expect(conversation.approvals).toEqual([{
        path: "messages[1].parts[0]",
        approvalId: "ap",
        toolCallId: "c1",
        toolName: "echo",
        input: { text: "hi" },
        approved: true,
        reason: undefined
      }])
      assert.strictEqual(conversation.continues, "a1")
    }))

  it.effect("a call without its result is the conversation's problem, named at the client's part", () =>
    Effect.gen(function*() {
      const conversation = yield* uiConversation([
        user("Hi"),
        assistant("a1", tool("c1", "input-available")),
        user("and?")
      ])
      expect(conversation.conversationProblem).toMatchObject({ _tag: "InvalidHistory", path: "messages[1].parts[0]" })
    }))
})
