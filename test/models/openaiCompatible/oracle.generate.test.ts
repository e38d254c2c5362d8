import type { LanguageModelV4CallOptions } from "@ai-sdk/provider"
import { generateText, jsonSchema, Output } from "ai"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { nodeFetch } from "../../../src/models/nodeFetch.ts"
import type { Reply } from "../../support/upstream/index.ts"
import { comparable, type GenerateOutcome, generateOutcome, type Pair, startPair, userPrompt } from "./pair.ts"

interface Scenario {
  readonly name: string
  readonly reply: Reply
  readonly options?: Partial<LanguageModelV4CallOptions>
  readonly check: (outcome: GenerateOutcome) => void
}

const succeeds = (outcome: GenerateOutcome) => expect(outcome).toHaveProperty("result.finishReason")
const fails = (outcome: GenerateOutcome) => expect(outcome).toHaveProperty("rejected")
const json = (body: string): Reply => ({ type: "raw", body })

const scenarios: ReadonlyArray<Scenario> = [
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

const fetches = [["parley's nodeFetch", nodeFetch], ["the global fetch", undefined]] as const

describe.each(fetches)("doGenerate equals the AI SDK model's over %s", (_, fetch) => {
  let pair: Pair
  beforeEach(async () => {
    pair = await startPair({ fetch })
  })
  afterEach(() => pair.close())

  const sameRequests = () =>
    expect(pair.myUpstream.requests.map((request) => request.body))
      .toEqual(pair.sdkUpstream.requests.map((request) => request.body))

  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      pair.enqueue(scenario.reply)
      const call: LanguageModelV4CallOptions = { prompt: userPrompt("Hi"), ...scenario.options }
      const expected = await generateOutcome(pair.sdk, call)
      const actual = await generateOutcome(pair.mine, call)
      scenario.check(actual)
      const upstreams = [pair.sdkUpstream, pair.myUpstream]
      expect(comparable(actual, upstreams)).toEqual(comparable(expected, upstreams))
      sameRequests()
    })
  }

  it("generateText with Output.object: response_format json_object, the same object", async () => {
    const answer = { type: "text", text: "{\"city\":\"Paris\",\"days\":2}" } as const
    pair.enqueue(answer, answer)
    const schema = jsonSchema<{ city: string; days: number }>({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "number" } },
      required: ["city", "days"]
    })
    const run = (model: typeof pair.sdk) =>
      generateText({ model, prompt: "Plan a trip", output: Output.object({ schema }) })
    const expected = await run(pair.sdk)
    const actual = await run(pair.mine)
    expect(actual.output).toEqual({ city: "Paris", days: 2 })
    expect(actual.output).toEqual(expected.output)
    expect(actual.warnings).toEqual(expected.warnings)
    expect(actual.usage).toEqual(expected.usage)
    sameRequests()
    expect(pair.myUpstream.requests[0]!.body.response_format).toEqual({ type: "json_object" })
  })
})
