import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import OpenAI from "openai"
import { describe, expect, it } from "vitest"
import { contractSchema } from "../../support/contractSchemas.ts"
import { startGateway } from "../../support/gateway.ts"
import { bearer } from "../../support/http.ts"
import { openAiClient, twoKeyGateway, weatherFunction as weather } from "../../support/openaiTools.ts"

const at = twoKeyGateway()

const get = (path: string, key = at.secret) => fetch(`${at.gateway.url}/v1/responses${path}`, { headers: bearer(key) })

describe("stored responses on /v1/responses (issue 23 part 4)", () => {
  it("stores a response by default: retrieve answers it as the POST did, delete removes it", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Hello there" })
    const created = await at.client.responses.create({ model: "test/m1", instructions: "Be brief.", input: "Hi" })
    expect(created).toMatchObject({ store: true, previous_response_id: null })
    expect(created.id).toMatch(/^resp_[0-9a-f]{32}$/)
    const retrieved = await at.client.responses.retrieve(created.id)
    expect(retrieved).toEqual(created)
    const validate = contractSchema("Response")
    expect(
      validate(JSON.parse(JSON.stringify({ ...retrieved, output_text: undefined }))),
      JSON.stringify(validate.errors)
    )
      .toBe(true)

    await at.client.responses.delete(created.id)
    const deleted = await (await fetch(`${at.gateway.url}/v1/responses/${created.id}`, {
      method: "DELETE",
      headers: bearer(at.secret)
    })).json()
    expect(deleted.error).toMatchObject({ type: "not_found_error", code: "response_not_found" })
    await expect(at.client.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    await expect(at.client.responses.delete(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
  })

  it("answers the deletion in OpenAI's deleted form", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Bye" })
    const created = await at.client.responses.create({ model: "test/m1", input: "Hi" })
    const answer = await fetch(`${at.gateway.url}/v1/responses/${created.id}`, {
      method: "DELETE",
      headers: bearer(at.secret)
    })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ id: created.id, object: "response", deleted: true })
  })

  it("stores a streamed response before its last event: retrieved after the stream, it is the completed one", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "one two", reasoning: "hm" })
    const stream = await at.client.responses.create({ model: "test/m1", input: "Count", stream: true })
    const events: Array<OpenAI.Responses.ResponseStreamEvent> = []
    for await (const event of stream) events.push(event)
    const last = events.at(-1)!
    expect(last.type).toBe("response.completed")
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index))
    const completed = (last as OpenAI.Responses.ResponseCompletedEvent).response
    expect(await at.client.responses.retrieve(completed.id)).toMatchObject({
      ...completed,
      output_text: "one two"
    })
  })

  it("keeps nothing with store: false", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Gone" })
    const created = await at.client.responses.create({ model: "test/m1", input: "Hi", store: false })
    expect(created).toMatchObject({ store: false })
    await expect(at.client.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    await expect(at.client.responses.inputItems.list(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
  })

  it("answers another key's response 404, and refuses it as previous_response_id", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Mine" })
    const created = await at.client.responses.create({ model: "test/m1", input: "Hi" })
    await expect(at.other.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    await expect(at.other.responses.inputItems.list(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    await expect(at.other.responses.delete(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    await expect(at.other.responses.create({ model: "test/m1", input: "x", previous_response_id: created.id }))
      .rejects.toMatchObject({ status: 400, error: { param: "previous_response_id" } })
    // Still there for its own key.
    expect((await at.client.responses.retrieve(created.id)).id).toBe(created.id)
    await expect(at.client.responses.retrieve("resp_unknown")).rejects.toBeInstanceOf(OpenAI.NotFoundError)
  })

  it("lists the input items in OpenAI's list form, paged as the SDK pages them", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Five" })
    const input: Array<OpenAI.Responses.ResponseInputItem> = [1, 2, 3, 4, 5].map((n) => ({
      role: "user",
      content: `message ${n}`
    }))
    const created = await at.client.responses.create({ model: "test/m1", input })
    const all: Array<OpenAI.Responses.ResponseItem> = []
    for await (const item of at.client.responses.inputItems.list(created.id, { limit: 2, order: "asc" })) all.push(item)
    expect(all.map((item) => (item as any).content[0].text)).toEqual(input.map((item) => (item as any).content))
    expect(all[0]).toMatchObject({
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "message 1" }]
    })
    expect(new Set(all.map((item) => item.id)).size).toBe(5)

    const first = await at.client.responses.inputItems.list(created.id, { limit: 2 })
    expect(first.data.map((item) => (item as any).content[0].text)).toEqual(["message 5", "message 4"])
    const raw = await (await get(`/${created.id}/input_items?limit=2&order=asc&after=${all[1]!.id}`)).json()
    expect(raw).toMatchObject({ object: "list", first_id: all[2]!.id, last_id: all[3]!.id, has_more: true })
    const before = await (await get(`/${created.id}/input_items?order=asc&before=${all[3]!.id}&limit=2`)).json()
    expect(before.data.map((item: any) => item.id)).toEqual([all[1]!.id, all[2]!.id])
    expect(before.has_more).toBe(true)

    const wrong = await get(`/${created.id}/input_items?limit=500&order=up`)
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).error).toMatchObject({ type: "invalid_request_error", param: "order" })
    expect((await get(`/${created.id}/input_items?after=nope`)).status).toBe(400)
    expect((await get(`/${created.id}?stream=true`)).status).toBe(400)
  })
})

describe("previous_response_id: a stored conversation continued (issue 23 part 4)", () => {
  it("prepends the stored input and output to the new input, not the instructions", async () => {
    at.gateway.upstream.enqueue({ type: "text", text: "Paris." })
    const first = await at.client.responses.create({
      model: "test/m1",
      instructions: "Be brief.",
      input: "Capital of France?"
    })
    at.gateway.upstream.enqueue({ type: "text", text: "Berlin." })
    const second = await at.client.responses.create({
      model: "test/m1",
      previous_response_id: first.id,
      input: "And Germany?"
    })
    expect(second).toMatchObject({ previous_response_id: first.id, output_text: "Berlin." })
    const sent = at.gateway.upstream.requests.at(-1)!.body.messages
    expect(JSON.stringify(sent)).not.toContain("Be brief.")
    expect(sent.filter((message: any) => message.role !== "system")).toEqual([
      { role: "user", content: "Capital of France?" },
      { role: "assistant", content: "Paris." },
      { role: "user", content: "And Germany?" }
    ])
    // The continued response's input items are the whole conversation, the last first.
    const items = await at.client.responses.inputItems.list(second.id)
    expect(items.data.map((item) => (item as any).content[0].text)).toEqual([
      "And Germany?",
      "Paris.",
      "Capital of France?"
    ])
    expect(items.data[1]!.id).toBe(first.output[0]!.id)

    // A third turn reaches through both.
    at.gateway.upstream.enqueue({ type: "text", text: "Rome." })
    await at.client.responses.create({ model: "test/m1", previous_response_id: second.id, input: "Italy?" })
    const third = at.gateway.upstream.requests.at(-1)!.body.messages.filter((message: any) => message.role !== "system")
    expect(third.map((message: any) => message.content)).toEqual([
      "Capital of France?",
      "Paris.",
      "And Germany?",
      "Berlin.",
      "Italy?"
    ])
  })

  it("answers a at.client tool's call stored in the previous output with a function_call_output", async () => {
    at.gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_prev", name: "weather", arguments: { city: "Oslo" } }]
    })
    const first = await at.client.responses.create({ model: "test/m1", input: "Weather in Oslo?", tools: [weather] })
    expect(first.output).toMatchObject([{ type: "function_call", call_id: "call_prev", name: "weather" }])

    at.gateway.upstream.enqueue({ type: "text", text: "Cold." })
    const second = await at.client.responses.create({
      model: "test/m1",
      tools: [weather],
      previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: "call_prev", output: "-3 C" }],
      stream: false
    })
    expect(second.output_text).toBe("Cold.")
    const sent = at.gateway.upstream.requests.at(-1)!.body.messages
    expect(sent.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_prev" }] })
    expect(sent.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_prev", content: "-3 C" })
  })

  it("refuses a continuation whose conversation would pass the body limit, 413", async () => {
    const small = await startGateway({ config: { bodyLimitBytes: 4_000 } })
    try {
      const key = await small.createKey()
      const sdk = openAiClient(small, key.secret)
      small.upstream.enqueue({ type: "text", text: "x".repeat(3_500) })
      const first = await sdk.responses.create({ model: "test/m1", input: "Long answer, please" })
      await expect(sdk.responses.create({ model: "test/m1", previous_response_id: first.id, input: "More" }))
        .rejects.toMatchObject({ status: 413, error: { type: "request_too_large" } })
    } finally {
      await small.close()
    }
  })
})

describe("retention of stored responses (issue 23 part 4)", () => {
  it("answers an expired response 404 and the sweep deletes it", async () => {
    const brief = await startGateway({ config: { responseRetentionMs: 300 } })
    try {
      const key = await brief.createKey()
      const sdk = openAiClient(brief, key.secret)
      brief.upstream.enqueue({ type: "text", text: "Soon gone" })
      const created = await sdk.responses.create({ model: "test/m1", input: "Hi" })
      const sql = brief.service(SqlClient.SqlClient)
      const count = () =>
        Effect.runPromise(Effect.map(
          sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM stored_responses WHERE id = ${created.id}`,
          (rows) => Number(rows[0]!.n)
        ))
      expect(await count()).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 800))
      await expect(sdk.responses.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError)
      expect(await count()).toBe(0)
    } finally {
      await brief.close()
    }
  })
})
