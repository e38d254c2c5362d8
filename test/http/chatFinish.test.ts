import type { UIMessageChunk } from "ai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordings, repliesOf } from "../agent/recordings/recordings.ts"
import { chatThroughAiSdk } from "../support/chatClient.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

// What an answer says about how it ended and what it used (docs/DESIGN.md §3.3, §3.15, §3.17).
let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "weather" })] })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

// A JSON answer asks the provider for a whole answer, a stream for a stream (docs/DESIGN.md §3.23).
const replay = (name: string, shape: "streamed" | "whole") => {
  const recording = recordings.find((candidate) => candidate.name === name)
  if (recording === undefined) throw new Error(`no recording ${name}`)
  gateway.upstream.enqueue(...repliesOf(recording, shape))
}

const chat = async (body: unknown) => (await postJson(`${gateway.url}/api/v1/chat`, body, bearer(secret))).json()

const streamed = async (body: Record<string, unknown>) => {
  const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ ...body, stream: true }), bearer(secret))
  expect(response.status).toBe(200)
  const text = await response.text()
  return text.split("\n").filter((line) => line.startsWith("data: {")).map((line) =>
    JSON.parse(line.slice("data: ".length)) as UIMessageChunk
  )
}

describe("stream=false says how the model finished (docs/DESIGN.md §3.15)", () => {
  it("a normal end: finished, reason stop", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Hello back" })
    const { data } = await chat(chatBody())
    expect(data).toMatchObject({ finished: true, finishReason: "stop" })
  })

  it("cut off by the model's output limit: unfinished, reason length", async () => {
    gateway.upstream.enqueue({ type: "text", text: "The history of Paris", finishReason: "length" })
    const { data } = await chat(chatBody())
    expect(data).toMatchObject({ finished: false, finishReason: "length" })
    expect(data.messages.at(-1).metadata).toMatchObject({ finished: false, finishReason: "length" })
  })

  it("stopped by the provider's content filter: reason content-filter", async () => {
    replay("Azure OpenAI content filter", "whole")
    const { data } = await chat(chatBody())
    expect(data).toMatchObject({ finished: true, finishReason: "content-filter" })
  })
})

describe("usage the provider did not send is left out (docs/DESIGN.md §3.17)", () => {
  it("in the JSON answer", async () => {
    replay("Ollama cut off by the output limit", "whole")
    const { data } = await chat(chatBody())
    expect(data.usage).toEqual({ inputTokens: 26, outputTokens: 10, totalTokens: 36 })
  })

  it("in the stream's finish metadata", async () => {
    replay("Ollama cut off by the output limit", "streamed")
    const chunks = await streamed({})
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "length",
      messageMetadata: {
        finished: false,
        finishReason: "length",
        usage: { inputTokens: 26, outputTokens: 10, totalTokens: 36 }
      }
    })
  })
})

describe("a provider that fails after the stream began (docs/DESIGN.md §3.3)", () => {
  it("the finish chunk carries the metadata: unfinished, reason error", async () => {
    gateway.upstream.enqueue({ type: "broken", afterChunks: 2 })
    const chunks = await streamed({})
    expect(chunks.slice(-4).map((chunk) => chunk.type)).toEqual(["text-end", "finish-step", "error", "finish"])
    expect(chunks.at(-2)).toEqual({
      type: "error",
      errorText: `The model provider "test" is unavailable right now. Retry later.`
    })
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "error",
      messageMetadata: { finished: false, finishReason: "error", usage: {} }
    })
  })

  it("a tool call the drop cut short ends as output-error for the AI SDK client", async () => {
    replay("OpenAI drops the connection in the middle of a tool call", "streamed")
    const { chunks, message } = await chatThroughAiSdk(
      gateway.url,
      secret,
      [{ id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] }],
      { model: "test/m1", allowedTools: ["weather"] }
    )
    expect(message?.parts).toEqual([
      { type: "step-start" },
      { type: "text", text: "Let me check.", state: "done" },
      expect.objectContaining({
        type: "dynamic-tool",
        toolName: "weather",
        toolCallId: "call_Pq8Rs1Tu4Vw7Xy0Za3Bc6De9",
        state: "output-error",
        errorText: "Error: the model's answer broke off before this tool call completed"
      })
    ])
    expect(chunks.at(-1)).toMatchObject({ type: "finish", messageMetadata: { finished: false, finishReason: "error" } })
  })
})
