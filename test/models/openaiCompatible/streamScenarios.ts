import type { LanguageModelV4CallOptions } from "@ai-sdk/provider"
import { expect } from "vitest"
import type { Reply } from "../../../src/demo/upstream/types.ts"
import type { StreamOutcome } from "./pair.ts"

export interface Scenario {
  readonly name: string
  readonly replies: ReadonlyArray<Reply>
  readonly options?: Partial<LanguageModelV4CallOptions>
  /** What the outcome must show, so that two equally broken runs do not pass. */
  readonly check: (outcome: StreamOutcome) => void
}

export const types = (outcome: StreamOutcome) => outcome.parts.map((part) => (part as { type: string }).type)

export const completes = (outcome: StreamOutcome) => {
  expect(outcome.rejected).toBeUndefined()
  expect(outcome.streamError).toBeUndefined()
  expect(types(outcome).at(-1)).toBe("finish")
}

const weatherTool = {
  type: "function" as const,
  name: "weather",
  description: "The weather in a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
}

/** Answers the scripted upstream composes, and the request options a call can set. */
export const answers: ReadonlyArray<Scenario> = [
  {
    name: "text in chunks, usage with cached and reasoning tokens",
    replies: [{
      type: "text",
      text: "The quick brown fox jumps over",
      chunks: 6,
      usage: { promptTokens: 20, completionTokens: 9, cachedTokens: 4, reasoningTokens: 3 }
    }],
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome).filter((type) => type === "text-delta")).toHaveLength(6)
    }
  },
  {
    name: "reasoning before text",
    replies: [{ type: "text", text: "It is 4.", reasoning: "Two plus two makes four" }],
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome)).toContain("reasoning-end")
    }
  },
  {
    name: "finish reason length",
    replies: [{ type: "text", text: "cut short", finishReason: "length" }],
    check: completes
  },
  {
    name: "several tool calls after text",
    replies: [{
      type: "tool-calls",
      text: "Let me look.",
      calls: [
        { name: "weather", arguments: { city: "Paris" } },
        { name: "weather", arguments: { city: "Oslo", days: 3 } },
        { id: "fixed-id", name: "time", arguments: {} }
      ]
    }],
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome).filter((type) => type === "tool-call")).toHaveLength(3)
    }
  },
  {
    name: "malformed tool arguments",
    replies: [{ type: "tool-calls", calls: [{ name: "weather", arguments: "{\"city\": \"Par" }] }],
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome)).toContain("tool-call")
    }
  },
  {
    name: "raw chunks included",
    replies: [{ type: "tool-calls", text: "ok", calls: [{ name: "weather", arguments: { city: "Rome" } }] }],
    options: { includeRawChunks: true },
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome).filter((type) => type === "raw").length).toBeGreaterThan(5)
    }
  },
  {
    name: "call settings, tools, a conversation and call headers",
    replies: [{ type: "text", text: "fine" }],
    options: {
      prompt: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "I should call the tool" },
            { type: "text", text: "Checking." },
            { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } }
          ]
        },
        {
          role: "tool",
          content: [{
            type: "tool-result",
            toolCallId: "c1",
            toolName: "weather",
            output: { type: "json", value: { sky: "clear" } }
          }]
        }
      ],
      tools: [weatherTool],
      toolChoice: { type: "tool", toolName: "weather" },
      maxOutputTokens: 64,
      temperature: 0.3,
      topP: 0.9,
      topK: 5,
      frequencyPenalty: 0.1,
      presencePenalty: 0.2,
      stopSequences: ["\n\n"],
      seed: 7,
      reasoning: "high",
      responseFormat: { type: "json", schema: { type: "object" }, name: "answer" },
      headers: { "x-trace": "t-1", "User-Agent": "parley-test" }
    },
    check: (outcome) => {
      completes(outcome)
      expect((outcome.parts[0] as { warnings: Array<unknown> }).warnings).toHaveLength(2)
    }
  },
  {
    name: "the provider's own options (merged and validated by the SDK)",
    replies: [{ type: "text", text: "fine" }],
    options: {
      providerOptions: {
        local: { user: "u-1", reasoningEffort: "low", textVerbosity: "low", custom_flag: true },
        openaiCompatible: { strictJsonSchema: false },
        "openai-compatible": { user: "u-2" }
      }
    },
    check: (outcome) => {
      completes(outcome)
      expect((outcome.request as { body: Record<string, unknown> }).body).toMatchObject({
        user: "u-1",
        custom_flag: true
      })
    }
  },
  {
    name: "invalid provider options",
    replies: [],
    options: { providerOptions: { local: { user: 5 } } },
    check: (outcome) => expect(outcome.rejected).toBeDefined()
  }
]
