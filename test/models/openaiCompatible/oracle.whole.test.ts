import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { OpenAICompatibleChatModel } from "../../../src/models/openaiCompatible/OpenAICompatibleChatModel.ts"
import { type AnswerShape, openPartStream } from "../../../src/models/PartStreaming.ts"
import { wholeAnswers } from "./generateScenarios.ts"
import { joined } from "./joinedParts.ts"
import { API_KEY, comparable, errorView, generateOutcome, type Pair, startPair, userPrompt } from "./pair.ts"
import { answers } from "./streamScenarios.ts"

interface Folded {
  readonly text: string
  readonly reasoning: string
  readonly toolCalls: ReadonlyArray<unknown>
  readonly finishReason: unknown
  readonly usage: unknown
}

// Counts the provider did not send are undefined in parley's usage and 0 in the SDK's (docs/DESIGN.md §3.17).
const sentCounts = (usage: any) => {
  const drop = (counts: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(counts).filter(([, count]) => count !== undefined && count !== 0))
  return { inputTokens: drop(usage.inputTokens), outputTokens: drop(usage.outputTokens) }
}

/** What a whole answer's parts add up to, in the terms of a doGenerate result. */
const fold = (parts: ReadonlyArray<LanguageModelV4StreamPart>): Folded => {
  let text = ""
  let reasoning = ""
  const toolCalls: Array<unknown> = []
  let finish: Extract<LanguageModelV4StreamPart, { type: "finish" }> | undefined
  for (const part of parts) {
    if (part.type === "text-delta") text += part.delta
    if (part.type === "reasoning-delta") reasoning += part.delta
    if (part.type === "tool-call") toolCalls.push(part)
    if (part.type === "finish") finish = part
  }
  return { text, reasoning, toolCalls, finishReason: finish?.finishReason, usage: sentCounts(finish?.usage) }
}

const foldResult = (result: any): Folded => {
  const of = (type: string) => result.content.filter((part: { type: string }) => part.type === type)
  return {
    text: of("text").map((part: { text: string }) => part.text).join(""),
    reasoning: of("reasoning").map((part: { text: string }) => part.text).join(""),
    toolCalls: of("tool-call"),
    finishReason: result.finishReason,
    usage: sentCounts(result.usage)
  }
}

/** A call's parts, each block's deltas joined; or its failure. */
const partsOf = async (model: OpenAICompatibleChatModel, call: LanguageModelV4CallOptions, shape: AnswerShape) => {
  const parts: Array<LanguageModelV4StreamPart> = []
  try {
    await (await model[openPartStream](call, shape)).read((part) => void parts.push(part))
  } catch (error) {
    return { rejected: errorView(error), parts: joined(parts) }
  }
  return { parts: joined(parts) }
}

describe("a whole answer (a JSON chat asks the provider for one, docs/DESIGN.md §3.23)", () => {
  let pair: Pair
  beforeEach(async () => {
    pair = await startPair()
  })
  afterEach(() => pair.close())

  for (const scenario of wholeAnswers) {
    it(`carries what the AI SDK model's doGenerate returns: ${scenario.name}`, async () => {
      pair.enqueue(scenario.reply)
      const call: LanguageModelV4CallOptions = { prompt: userPrompt("Hi"), ...scenario.options }
      const expected = await generateOutcome(pair.sdk, call)
      const upstreams = [pair.sdkUpstream, pair.myUpstream]
      const parts: Array<LanguageModelV4StreamPart> = []
      try {
        await (await pair.mine[openPartStream](call, "whole")).read((part) => void parts.push(part))
      } catch (error) {
        // Refused before any part: the same error as the SDK's.
        expect(comparable({ rejected: error }, upstreams)).toEqual(comparable(expected, upstreams))
        return
      }
      if (!("result" in expected)) {
        // A body the SDK rejects ends the parts in an error, as the same chunk in a stream does.
        expect(parts.find((part) => part.type === "error"), JSON.stringify(errorView(expected.rejected))).toBeDefined()
        return
      }
      expect(parts.some((part) => part.type === "error")).toBe(false)
      expect(comparable(fold(parts), upstreams)).toEqual(comparable(foldResult(expected.result), upstreams))
      expect(pair.myUpstream.requests.at(-1)?.body).toEqual(pair.sdkUpstream.requests.at(-1)?.body)
    })
  }

  for (const scenario of answers) {
    it(`gives the parts its stream gives, each text in one delta: ${scenario.name}`, async () => {
      // One upstream each, with the same script: tool-call ids line up.
      const streaming = new OpenAICompatibleChatModel({
        provider: "local",
        baseURL: pair.sdkUpstream.url,
        apiKey: API_KEY,
        modelId: "demo"
      })
      pair.enqueue(...scenario.replies)
      const call: LanguageModelV4CallOptions = { prompt: userPrompt("Hi"), ...scenario.options }
      const streamed = await partsOf(streaming, call, "streamed")
      const whole = await partsOf(pair.mine, call, "whole")
      expect(pair.sdkUpstream.requests.map((request) => request.body.stream)).toEqual(
        pair.myUpstream.requests.map(() => true)
      )
      expect(pair.myUpstream.requests.map((request) => request.body.stream)).toEqual(
        pair.myUpstream.requests.map(() => undefined)
      )
      const upstreams = [pair.sdkUpstream, pair.myUpstream]
      expect(comparable(whole, upstreams)).toEqual(comparable(streamed, upstreams))
    })
  }
})
