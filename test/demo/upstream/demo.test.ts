import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../../src/demo/upstream/server.ts"
import type { Upstream } from "../../../src/demo/upstream/types.ts"

let upstream: Upstream
let model: ReturnType<ReturnType<typeof createOpenAICompatible>["chatModel"]>

beforeAll(async () => {
  upstream = await startUpstream()
  model = createOpenAICompatible({ name: "demo", baseURL: upstream.url, includeUsage: true }).chatModel("demo")
})
afterAll(() => upstream.close())

type SearchInput = { query: string; limit: number; remote: boolean; sort: "newest" | "oldest"; note?: string }
const received: Array<SearchInput> = []
const searchJobs = tool({
  description: "Search open positions",
  inputSchema: jsonSchema<SearchInput>({
    type: "object",
    properties: {
      query: { type: "string" },
      limit: { type: "integer", minimum: 5 },
      remote: { type: "boolean" },
      sort: { type: "string", enum: ["newest", "oldest"] },
      note: { type: "string" }
    },
    required: ["query", "limit", "remote", "sort"]
  }),
  execute: async (input) => {
    received.push(input)
    return "3 open positions"
  }
})

describe("scripted upstream, demo behaviour when nothing is scripted", () => {
  it("calls the first tool with the required arguments, then summarises its result", async () => {
    const result = await generateText({
      model,
      prompt: "backend engineers in Porto",
      tools: { search_jobs: searchJobs },
      stopWhen: stepCountIs(3)
    })

    expect(received).toEqual([{ query: "backend engineers in Porto", limit: 5, remote: true, sort: "newest" }])
    expect(result.steps).toHaveLength(2)
    expect(result.text).toBe("Result of search_jobs: 3 open positions")
    expect(result.finishReason).toBe("stop")
  })

  it("echoes the user's text when no tools are offered, streamed word by word", async () => {
    const result = streamText({ model, prompt: "hello from the demo" })
    const deltas: Array<string> = []
    for await (const part of result.fullStream) if (part.type === "text-delta") deltas.push(part.text)

    expect(deltas).toEqual(["hello ", "from ", "the ", "demo"])
    expect((await result.usage).outputTokens).toBeGreaterThan(0)
  })

  it("does not call tools when the client forbids it", async () => {
    const result = await generateText({
      model,
      prompt: "just talk",
      tools: { search_jobs: searchJobs },
      toolChoice: "none"
    })
    expect(result.toolCalls).toHaveLength(0)
    expect(result.text).toBe("just talk")
  })

  it("reads text out of multi-part user content", async () => {
    const result = await generateText({
      model,
      messages: [{ role: "user", content: [{ type: "text", text: "first" }, { type: "text", text: "second" }] }]
    })
    expect(result.text).toBe("first second")
  })
})
