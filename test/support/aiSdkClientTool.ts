import type { LanguageModel } from "ai"
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai"
import { expect } from "vitest"
import type { TestGateway } from "./gateway.ts"

/**
 * The AI SDK's client-tool round trip through one of parley's standard doors
 * (docs/DESIGN.md §14), whichever AI SDK provider speaks it: the SDK runs the
 * tool in the client, parley hands its call back, and the SDK's next step
 * sends the result.
 */
/** A client tool the scripted model calls: the SDK runs it. */
export const weather = tool({
  description: "The weather in a city",
  inputSchema: jsonSchema<{ city: string }>({
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"]
  }),
  execute: async ({ city }) => `sunny in ${city}`
})

/** generateText over two requests, the tool's result in the second. */
export const generateWithClientTool = async (gateway: TestGateway, model: LanguageModel) => {
  gateway.upstream.enqueue({
    type: "tool-calls",
    calls: [{ id: "call_1", name: "weather", arguments: { city: "Oslo" } }]
  })
  gateway.upstream.enqueue({
    type: "text",
    text: "It is sunny in Oslo.",
    usage: { promptTokens: 30, completionTokens: 6 }
  })
  const before = gateway.upstream.requests.length
  const result = await generateText({ model, prompt: "Weather in Oslo?", tools: { weather }, stopWhen: stepCountIs(3) })
  expect(result.text).toBe("It is sunny in Oslo.")
  expect(result.steps.map((step) => step.finishReason)).toEqual(["tool-calls", "stop"])
  expect(result.steps[0]!.toolResults[0]).toMatchObject({ toolName: "weather", output: "sunny in Oslo" })
  expect(result.totalUsage.inputTokens).toBeGreaterThan(30)
  // Through parley, each SDK step is one request upstream, the tool's result in the second.
  const sent = gateway.upstream.requests.slice(before)
  expect(sent).toHaveLength(2)
  expect(sent[1]!.body.messages.at(-1)).toMatchObject({
    role: "tool",
    tool_call_id: "call_1",
    content: "sunny in Oslo"
  })
}

/** streamText: the text in several deltas, the tool call, the usage. */
export const streamWithClientTool = async (gateway: TestGateway, model: LanguageModel) => {
  gateway.upstream.enqueue({
    type: "tool-calls",
    calls: [{ id: "call_2", name: "weather", arguments: { city: "Rome" } }]
  })
  gateway.upstream.enqueue({ type: "text", text: "Sunny in Rome." })
  const result = streamText({ model, prompt: "Weather in Rome?", tools: { weather }, stopWhen: stepCountIs(3) })
  const deltas: Array<string> = []
  for await (const part of result.fullStream) if (part.type === "text-delta") deltas.push(part.text)
  expect(deltas.join("")).toBe("Sunny in Rome.")
  expect(deltas.length).toBeGreaterThan(1)
  const steps = await result.steps
  expect(steps[0]!.toolCalls[0]).toMatchObject({ toolName: "weather", input: { city: "Rome" } })
  expect((await result.totalUsage).totalTokens).toBeGreaterThan(0)
}
