import type { LanguageModelV4CallOptions } from "@ai-sdk/provider"
import { generateText, jsonSchema, Output } from "ai"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { nodeFetch } from "../../../src/models/nodeFetch.ts"
import { wholeAnswers } from "./generateScenarios.ts"
import { comparable, generateOutcome, type Pair, startPair, userPrompt } from "./pair.ts"

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

  for (const scenario of wholeAnswers) {
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
