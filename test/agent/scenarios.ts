import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { Effect, Schema } from "effect"
import { ToolFailure } from "../../src/tools/Tool.ts"
import { makeTestTool } from "../support/tools.ts"
import { finish, reasoning, type Script, start, text, toolCall, usage } from "./fixtures.ts"

const weather = makeTestTool({
  name: "weather",
  description: "Current weather for a city",
  inputSchema: Schema.Struct({ city: Schema.String, unit: Schema.optional(Schema.Literals(["C", "F"])) }),
  execute: (input: { city: string }) => Effect.succeed({ city: input.city, temperature: 21 })
})
const failing = makeTestTool({
  name: "failing",
  execute: () => Effect.fail(new ToolFailure("the partner API refused the call"))
})
// Different durations fix the completion order, which decides the order of output chunks.
const slow = makeTestTool({
  name: "slow",
  execute: (input: { text: string }) => Effect.as(Effect.sleep("60 millis"), `slow:${input.text}`)
})
const fast = makeTestTool({
  name: "fast",
  execute: (input: { text: string }) => Effect.as(Effect.sleep("5 millis"), { fast: input.text })
})
export const tools = [weather, failing, slow, fast]

/** Conversations the loop must run exactly as the AI SDK does. */
export const scenarios: ReadonlyArray<{ readonly name: string; readonly script: Script; readonly maxSteps?: number }> =
  [
    {
      name: "plain text",
      script: [[start, { type: "response-metadata", id: "r1" }, ...text("0", "Hello", "", " world"), finish("stop")]]
    },
    {
      name: "one tool call, then text",
      script: [
        [
          start,
          ...text("0", "Let me look."),
          ...toolCall("call-1", "weather", `{"city":"Paris"}`, true),
          finish("tool-calls")
        ],
        [start, ...text("0", "It is ", "21 degrees."), finish("stop")]
      ]
    },
    {
      name: "two parallel tool calls",
      script: [
        [
          start,
          ...toolCall("call-s", "slow", `{"text":"a"}`, true),
          ...toolCall("call-f", "fast", `{"text":"b"}`),
          finish("tool-calls")
        ],
        [start, ...text("0", "Both done."), finish("stop")]
      ]
    },
    {
      name: "a tool that fails",
      script: [
        [start, ...toolCall("call-1", "failing", `{"text":"x"}`), finish("tool-calls")],
        [start, ...text("0", "The partner API failed."), finish("stop")]
      ]
    },
    {
      name: "invalid tool input: schema mismatch, broken JSON, unknown tool, empty arguments",
      script: [
        [
          start,
          ...toolCall("call-1", "weather", `{"town":"Paris"}`, true),
          ...toolCall("call-2", "weather", `{"city":`),
          ...toolCall("call-3", "teleport", `{"to":"Mars"}`),
          ...toolCall("call-4", "weather", ""),
          finish("tool-calls")
        ],
        [start, ...toolCall("call-5", "weather", `{"city":"Lyon","unit":"C"}`), finish("tool-calls")],
        [start, ...text("0", "Fixed it."), finish("stop")]
      ]
    },
    {
      name: "a streamed call to a tool the model invented",
      script: [
        [start, ...toolCall("call-1", "teleport", `{"to":"Mars"}`, true), finish("tool-calls")],
        [start, ...text("0", "I cannot teleport."), finish("stop")]
      ]
    },
    {
      name: "reasoning, then text",
      script: [[
        start,
        ...reasoning("r", "Think", "ing", ""),
        ...text("0", "Answer"),
        finish("stop", usage(7, 9, { reasoning: 4 }))
      ]]
    },
    {
      name: "three steps with text in each",
      script: [
        [
          start,
          ...reasoning("0", "plan"),
          ...text("0", "Step one."),
          ...toolCall("a", "weather", `{"city":"Oslo"}`),
          finish("tool-calls")
        ],
        [start, ...text("0", "Step two."), ...toolCall("b", "fast", `{"text":"z"}`, true), finish("tool-calls")],
        [start, ...text("0", "Done."), finish("stop", usage(30, 3, { cacheRead: 20 }))]
      ]
    },
    {
      name: "tool calls cut off by the output limit are not run",
      script: [[start, ...text("0", "Calling"), ...toolCall("call-1", "weather", `{"city":"Rome"}`), finish("length")]]
    },
    {
      name: "provider metadata travels with the chunks and the history",
      script: [
        [
          start,
          { type: "text-start", id: "t", providerMetadata: { mock: { a: 1 } } },
          { type: "text-delta", id: "t", delta: "", providerMetadata: { mock: { b: 2 } } },
          { type: "text-end", id: "t", providerMetadata: { mock: { c: 3 } } },
          {
            type: "tool-call",
            toolCallId: "call-1",
            toolName: "weather",
            input: `{"city":"Nice"}`,
            providerMetadata: { mock: { signature: "s" } }
          } satisfies LanguageModelV4StreamPart,
          finish("tool-calls")
        ],
        [start, ...text("0", "ok"), finish("stop")]
      ]
    },
    {
      name: "a model that calls a tool at every step stops at the step limit",
      script: [[start, ...toolCall("call", "fast", `{"text":"again"}`), finish("tool-calls")]],
      maxSteps: 3
    }
  ]
