import { createOpenAI } from "@ai-sdk/openai"
import { generateText, streamText } from "ai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generateWithClientTool, streamWithClientTool } from "../../support/aiSdkClientTool.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"

let gateway: TestGateway
let provider: ReturnType<typeof createOpenAI>

beforeAll(async () => {
  gateway = await startGateway()
  const { secret } = await gateway.createKey()
  provider = createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret })
})
afterAll(() => gateway.close())

describe("the AI SDK's OpenAI Responses model pointed at parley (issue 21 part 1)", () => {
  it("generateText runs a client tool round trip over two requests", () =>
    generateWithClientTool(gateway, provider.responses("test/m1")))

  it("streamText streams the text, the tool call and the usage", () =>
    streamWithClientTool(gateway, provider.responses("test/m1")))

  it("reads the Open Responses specification's fields, and a stream to its [DONE] (issue 34 part 4)", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Whole." })
    const generated = await generateText({
      model: provider.responses("test/m1"),
      prompt: "Hi",
      temperature: 0.3,
      include: { responseBody: true },
      providerOptions: { openai: { promptCacheKey: "cache-1", safetyIdentifier: "user-1" } }
    })
    expect(generated.text).toBe("Whole.")
    expect(generated.response.body).toMatchObject({
      completed_at: expect.any(Number),
      temperature: 0.3,
      top_p: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      prompt_cache_key: "cache-1",
      safety_identifier: "user-1"
    })

    gateway.upstream.enqueue({ type: "text", text: "Streamed to the end." })
    const result = streamText({ model: provider.responses("test/m1"), prompt: "Hi", includeRawChunks: true })
    const parts: Array<{ readonly type: string; readonly rawValue?: unknown }> = []
    for await (const part of result.fullStream) parts.push(part)
    expect(parts.filter((part) => part.type === "error")).toEqual([])
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" })
    const raw = parts.flatMap((part) => part.type === "raw" ? [part.rawValue] : [])
    expect(raw.at(-1)).toMatchObject({ type: "response.completed", response: { completed_at: expect.any(Number) } })
    expect(await result.text).toBe("Streamed to the end.")
  })
})
