import { createOpenAI } from "@ai-sdk/openai"
import { it as effect } from "@effect/vitest"
import { generateText, type ModelMessage, stepCountIs, streamText } from "ai"
import type OpenAI from "openai"
import { describe, expect, it } from "vitest"
import type { ApiKey } from "../../../src/domain/ApiKey.ts"
import { responseOfItem, storedWire } from "../../../src/protocols/responses/stored.ts"
import { weather } from "../../support/aiSdkClientTool.ts"
import { startGateway } from "../../support/gateway.ts"
import { openAiClient, twoKeyGateway } from "../../support/openaiTools.ts"
import { validBodies } from "./generators.ts"

const at = twoKeyGateway()

// The conversation the scripted upstream was sent last, without the system prompt.
const lastSent = () =>
  at.gateway.upstream.requests.at(-1)!.body.messages.filter((message: { role: string }) => message.role !== "system")

// The id of a response's first output item (the SDK types it as optional).
const firstItem = (response: OpenAI.Responses.Response) => response.output[0]!.id!

describe("item_reference input items on /v1/responses", () => {
  it("holds the AI SDK's three-turn conversation, its earlier answers sent as references (store at its default)", async () => {
    // The bodies the SDK sent parley: its earlier answers go as item_reference items.
    const bodies: Array<{ input: ReadonlyArray<{ type?: string }> }> = []
    const provider = createOpenAI({
      baseURL: `${at.gateway.url}/v1`,
      apiKey: at.secret,
      fetch: async (url, init) => {
        bodies.push(JSON.parse(String(init?.body)))
        return fetch(url, init)
      }
    })
    const model = provider.responses("test/m1")
    const history: Array<ModelMessage> = [{ role: "user", content: "My name is Ada." }]

    at.gateway.upstream.enqueue({ type: "text", text: "Hello Ada." })
    const first = await generateText({ model, messages: history })
    expect(first.text).toBe("Hello Ada.")
    history.push(...first.responseMessages, { role: "user", content: "Weather in Oslo?" })

    at.gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_1", name: "weather", arguments: { city: "Oslo" } }]
    })
    at.gateway.upstream.enqueue({ type: "text", text: "It is sunny in Oslo." })
    const second = await generateText({ model, messages: history, tools: { weather }, stopWhen: stepCountIs(3) })
    expect(second.steps.map((step) => step.finishReason)).toEqual(["tool-calls", "stop"])
    history.push(...second.responseMessages, { role: "user", content: "What is my name?" })

    at.gateway.upstream.enqueue({ type: "text", text: "Your name is Ada." })
    const third = streamText({ model, messages: history, tools: { weather } })
    expect(await third.text).toBe("Your name is Ada.")

    const references = bodies.at(-1)!.input.filter((item) => item.type === "item_reference")
    expect(references).toHaveLength(2)
    expect(lastSent()).toMatchObject([
      { role: "user", content: "My name is Ada." },
      { role: "assistant", content: "Hello Ada." },
      { role: "user", content: "Weather in Oslo?" },
      { role: "assistant", tool_calls: [{ id: "call_1", function: { name: "weather" } }] },
      { role: "tool", tool_call_id: "call_1", content: "sunny in Oslo" },
      { role: "assistant", content: "It is sunny in Oslo." },
      { role: "user", content: "What is my name?" }
    ])
  })

  it("takes the openai SDK's references to stored input and output items, with store: false too", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Paris." })
    const first = await at.client.responses.create({ model: "test/m1", input: "Capital of France?" })
    const [question] = (await at.client.responses.inputItems.list(first.id)).data
    at.gateway.upstream.enqueue({ type: "text", text: "Berlin." })
    const second = await at.client.responses.create({
      model: "test/m1",
      store: false,
      input: [
        { type: "item_reference", id: question!.id },
        { type: "item_reference", id: firstItem(first) },
        { role: "user", content: "And Germany?" }
      ]
    })
    expect(second.output_text).toBe("Berlin.")
    expect(lastSent()).toEqual([
      { role: "user", content: "Capital of France?" },
      { role: "assistant", content: "Paris." },
      { role: "user", content: "And Germany?" }
    ])

    // A stored response keeps the items referenced, not the references.
    at.gateway.upstream.enqueue({ type: "text", text: "Rome." })
    const third = await at.client.responses.create({
      model: "test/m1",
      input: [{ type: "item_reference", id: firstItem(first) }, { role: "user", content: "Italy?" }]
    })
    const kept = (await at.client.responses.inputItems.list(third.id, { order: "asc" })).data
    expect(kept[0]).toMatchObject({ id: firstItem(first), type: "message", role: "assistant" })
  })

  it("answers another key's item, an unknown one and a malformed one 400 naming the place, and runs nothing", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Mine" })
    const mine = await at.client.responses.create({ model: "test/m1", input: "Hi" })
    const before = at.gateway.upstream.requests.length
    const refused = (sdk: OpenAI, id: string) =>
      expect(sdk.responses.create({
        model: "test/m1",
        input: [{ role: "user", content: "Hi" }, { type: "item_reference", id }]
      })).rejects.toMatchObject({
        status: 400,
        error: {
          type: "invalid_request_error",
          code: "item_not_found",
          param: "input[1]",
          message: expect.stringContaining(`Item with id '${id}' not found`)
        }
      })
    await refused(at.other, firstItem(mine))
    await refused(at.client, `msg_${"0".repeat(32)}_0`)
    await refused(at.client, "msg_unknown")
    expect(at.gateway.upstream.requests.length).toBe(before)
  })

  it("refuses a body the referenced items grow past the body limit, 413", async () => {
    const small = await startGateway({ config: { bodyLimitBytes: 4_000 } })
    try {
      const sdk = openAiClient(small, (await small.createKey()).secret)
      small.upstream.enqueue({ type: "text", text: "x".repeat(3_500) })
      const first = await sdk.responses.create({ model: "test/m1", input: "Long answer, please" })
      await expect(sdk.responses.create({
        model: "test/m1",
        input: [{ type: "item_reference", id: firstItem(first) }, { type: "item_reference", id: firstItem(first) }]
      })).rejects.toMatchObject({ status: 413, error: { type: "request_too_large" } })
    } finally {
      await small.close()
    }
  })
})

describe("the item ids a stored response is given", () => {
  effect.prop(
    "name their response: each input item sent without an id is found by the response's id",
    [validBodies],
    ([body]) => {
      const wire = storedWire({ id: "key_1" } as ApiKey, body.input)
      const sent = typeof body.input === "string" ? [{}] : body.input as ReadonlyArray<{ readonly id?: string }>
      wire.input.forEach((item, index) => {
        const id = (item as { readonly id: string }).id
        // An item's own id is kept as sent.
        if (typeof sent[index]!.id !== "string") expect(responseOfItem(id)).toBe(wire.id)
        else expect(id).toBe(sent[index]!.id)
      })
      expect(responseOfItem(`msg_${wire.prefix}_12`)).toBe(wire.id)
    }
  )
})
