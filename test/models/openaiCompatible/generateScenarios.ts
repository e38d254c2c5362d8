import type { LanguageModelV4CallOptions } from "@ai-sdk/provider"
import { expect } from "vitest"
import type { Reply } from "../../../src/demo/upstream/types.ts"
import type { GenerateOutcome } from "./pair.ts"

export interface GenerateScenario {
  readonly name: string
  readonly reply: Reply
  readonly options?: Partial<LanguageModelV4CallOptions>
  readonly check: (outcome: GenerateOutcome) => void
}

const succeeds = (outcome: GenerateOutcome) => expect(outcome).toHaveProperty("result.finishReason")
const fails = (outcome: GenerateOutcome) => expect(outcome).toHaveProperty("rejected")
const json = (body: string): Reply => ({ type: "raw", body })

/** Non-streamed answers the scripted upstream sends, good and bad. */
export const wholeAnswers: ReadonlyArray<GenerateScenario> = [
  {
    name: "text with usage",
    reply: {
      type: "text",
      text: "Hello there",
      usage: { promptTokens: 8, completionTokens: 3, cachedTokens: 2, reasoningTokens: 1 }
    },
    check: succeeds
  },
  { name: "reasoning and text", reply: { type: "text", text: "Four.", reasoning: "2 + 2" }, check: succeeds },
  { name: "finish reason length", reply: { type: "text", text: "cut", finishReason: "length" }, check: succeeds },
  {
    name: "tool calls and text",
    reply: {
      type: "tool-calls",
      text: "Looking",
      calls: [{ name: "weather", arguments: { city: "Paris" } }, { name: "time", arguments: "{bad" }]
    },
    options: {
      tools: [{ type: "function", name: "weather", inputSchema: { type: "object" } }],
      toolChoice: { type: "required" },
      topK: 3,
      providerOptions: { local: { user: "u-9" } }
    },
    check: succeeds
  },
  {
    name: "a refusal and a thought signature",
    reply: json(JSON.stringify({
      id: "x",
      created: 0,
      choices: [{
        message: {
          content: null,
          refusal: "No.",
          tool_calls: [{
            function: { name: "f", arguments: "{}" },
            id: "t1",
            extra_content: { google: { thought_signature: "s" } }
          }]
        },
        finish_reason: "stop"
      }]
    })),
    check: succeeds
  },
  { name: "a body that is not JSON", reply: json("{\"id\": "), check: fails },
  { name: "a body of the wrong shape", reply: json("{\"choices\": 5}"), check: fails },
  { name: "an answer without choices", reply: json("{\"choices\": []}"), check: fails },
  { name: "HTTP 429 with Retry-After", reply: { type: "error", status: 429, retryAfter: 1 }, check: fails },
  { name: "HTTP 500", reply: { type: "error", status: 500 }, check: fails }
]
