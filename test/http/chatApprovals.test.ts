import { Effect } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Approvals } from "../../src/governance/Approvals.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody as plainBody, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

let gateway: TestGateway
let secret: string
let otherSecret: string
let runs: Array<unknown> = []

const dangerous = makeTestTool({
  name: "dangerous",
  execute: (input: { text: string }) => Effect.sync(() => (runs.push(input), { done: input.text }))
})

beforeAll(async () => {
  gateway = await startGateway({ tools: [dangerous, makeTestTool({ name: "echo" })] })
  ;({ secret } = await gateway.createKey({ approve: ["dangerous"] }))
  ;({ secret: otherSecret } = await gateway.createKey({ approve: ["dangerous"] }))
})
afterAll(() => gateway.close())
beforeEach(() => {
  runs = []
})

const chatBody = (overrides: Record<string, unknown> = {}) =>
  plainBody({ allowedTools: ["dangerous", "echo"], ...overrides })

const chat = async (body: unknown, key = secret) => {
  const response = await postJson(`${gateway.url}/api/v1/chat`, body, bearer(key))
  return { response, body: await response.json() }
}

type Part = Record<string, any>
type Message = { id: string; role: string; parts: Array<Part> }

/** A first turn: the model calls `dangerous`; parley asks for approval. Returns the conversation. */
const requestApproval = async (text = "ping", callId = "call_1"): Promise<Array<Message>> => {
  gateway.upstream.enqueue({ type: "tool-calls", calls: [{ id: callId, name: "dangerous", arguments: { text } }] })
  const { body, response } = await chat(chatBody())
  expect(response.status).toBe(200)
  expect(body.data).toMatchObject({ finished: false, finishReason: "approval-required" })
  return body.data.messages
}

const toolPart = (messages: Array<Message>) => messages.at(-1)!.parts.find((part) => part.type === "dynamic-tool")!

/** The conversation as `addToolApprovalResponse` leaves it. */
const answer = (messages: Array<Message>, approved: boolean, reason?: string, edit: (part: Part) => Part = (p) => p) =>
  messages.map((message, index) =>
    index < messages.length - 1 ? message : {
      ...message,
      parts: message.parts.map((part) =>
        part.type === "dynamic-tool" && part.state === "approval-requested"
          ? edit({
            ...part,
            state: "approval-responded",
            approval: { id: part.approval.id, approved, ...(reason === undefined ? {} : { reason }) }
          })
          : part
      )
    }
  )

describe("tool approvals (docs/DESIGN.md §10)", () => {
  it("a call of a listed tool waits: approval-requested with a signed id, the tool not run", async () => {
    const messages = await requestApproval()
    expect(toolPart(messages)).toMatchObject({
      toolName: "dangerous",
      state: "approval-requested",
      input: { text: "ping" },
      approval: { id: expect.stringMatching(/^apr_/) }
    })
    expect(runs).toEqual([])
  })

  it("approved: the tool runs, the loop continues in the same message, and the id cannot be used again", async () => {
    const messages = await requestApproval()
    const approved = answer(messages, true)
    const before = gateway.upstream.requests.length
    gateway.upstream.enqueue({ type: "text", text: "Done." })
    const { body, response } = await chat(chatBody({ messages: approved }))
    expect(response.status).toBe(200)
    expect(runs).toEqual([{ text: "ping" }])
    expect(body.data).toMatchObject({ finished: true, finishReason: "stop" })
    expect(body.data.messages).toHaveLength(2)
    const last = body.data.messages.at(-1)
    expect(last.id).toBe(messages.at(-1)!.id)
    expect(toolPart(body.data.messages)).toMatchObject({
      state: "output-available",
      output: { done: "ping" },
      approval: { approved: true }
    })
    expect(last.parts.at(-1)).toMatchObject({ type: "text", text: "Done." })
    const sent = gateway.upstream.requests[before]!.body.messages
    expect(sent.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_1",
      content: JSON.stringify({ done: "ping" })
    })

    // The same approved history again: refused, nothing runs, the model is not asked.
    const requests = gateway.upstream.requests.length
    const replay = await chat(chatBody({ messages: approved }))
    expect(replay.response.status).toBe(400)
    expect(replay.body.details.error).toBe(
      `"messages[1].parts[1]" carries an approval id that was already used: an approval runs its call once`
    )
    expect(runs).toHaveLength(1)
    expect(gateway.upstream.requests.length).toBe(requests)
  })

  it("denied: output-denied, and the model is told, with the reason", async () => {
    const messages = await requestApproval()
    const before = gateway.upstream.requests.length
    gateway.upstream.enqueue({ type: "text", text: "Understood." })
    const { body, response } = await chat(chatBody({ messages: answer(messages, false, "not on a Friday") }))
    expect(response.status).toBe(200)
    expect(runs).toEqual([])
    expect(toolPart(body.data.messages)).toMatchObject({
      state: "output-denied",
      approval: { approved: false, reason: "not on a Friday" }
    })
    const sent = gateway.upstream.requests[before]!.body.messages
    expect(sent.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1", content: "not on a Friday" })
  })

  const refused = async (messages: unknown, key = secret) => {
    const requests = gateway.upstream.requests.length
    const { body, response } = await chat(chatBody({ messages }), key)
    expect(response.status).toBe(400)
    expect(runs).toEqual([])
    expect(gateway.upstream.requests.length).toBe(requests)
    return body
  }

  it("an approval moved to another call, to altered input or to another key is a 400 naming the part", async () => {
    const messages = await requestApproval()
    const forged =
      `"messages[1].parts[1]" carries an approval id that parley did not issue for this call of "dangerous"`
    const altered = await refused(
      answer(messages, true, undefined, (part) => ({ ...part, input: { text: "rm -rf /" } }))
    )
    expect(altered.error).toBe("BadRequest")
    expect(altered.details.error).toContain(forged)

    const otherCall = await refused(answer(messages, true, undefined, (part) => ({ ...part, toolCallId: "call_9" })))
    expect(otherCall.details.error).toContain(`"dangerous" (toolCallId "call_9")`)

    // An id issued for another conversation's call, carried over to this one.
    const elsewhere = toolPart(await requestApproval("pong", "call_2")).approval.id
    const moved = await refused(
      answer(messages, true, undefined, (part) => ({ ...part, approval: { id: elsewhere, approved: true } }))
    )
    expect(moved.details.error).toContain(forged)

    expect((await refused(answer(messages, true), otherSecret)).details.error).toContain(forged)
    const made = await refused(
      answer(messages, true, undefined, (part) => ({ ...part, approval: { id: "apr_1_x", approved: true } }))
    )
    expect(made.details.error).toContain(forged)
    // None of this used the approval: the right answer still runs the call.
    gateway.upstream.enqueue({ type: "text", text: "Done." })
    expect((await chat(chatBody({ messages: answer(messages, true) }))).response.status).toBe(200)
    expect(runs).toEqual([{ text: "ping" }])
  })

  it("streams the AI SDK's approval request chunk and ends approval-required", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_s", name: "dangerous", arguments: { text: "s" } }]
    })
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream: true }), bearer(secret))
    const text = await response.text()
    const chunks = text.split("\n").filter((line) => line.startsWith("data: {")).map((line) =>
      JSON.parse(line.slice(6))
    )
    expect(chunks.map((chunk) => chunk.type).slice(-4)).toEqual([
      "tool-input-available",
      "tool-approval-request",
      "finish-step",
      "finish"
    ])
    expect(chunks.at(-3)).toEqual({
      type: "tool-approval-request",
      approvalId: expect.stringMatching(/^apr_/),
      toolCallId: "call_s"
    })
    expect(text).toContain(`event: tool\ndata: {"type":"tool-approval-request"`)
    expect(chunks.at(-1)).toMatchObject({
      finishReason: "tool-calls",
      messageMetadata: { finished: false, finishReason: "approval-required" }
    })
    expect(runs).toEqual([])
  })

  it("a request refused by a limit leaves its approvals unused (docs/DESIGN.md §14: governance claims them last)", async () => {
    const { secret: limited } = await gateway.createKey({ approve: ["dangerous"], limits: { requestsPerMinute: 1 } })
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{ id: "call_9", name: "dangerous", arguments: { text: "x" } }]
    })
    const first = await chat(chatBody(), limited)
    expect(first.body.data.finishReason).toBe("approval-required")
    const messages: Array<Message> = first.body.data.messages
    const refused = await chat(chatBody({ messages: answer(messages, true) }), limited)
    expect(refused.response.status).toBe(429)
    expect(runs).toEqual([])
    // Never claimed: claiming it now finds it unused.
    const id: string = toolPart(messages).approval.id
    expect(await Effect.runPromise(gateway.service(Approvals).claim([id]))).toEqual([])
  })

  it("validateOnly marks the tools that need approval", async () => {
    const { body } = await chat(chatBody({ validateOnly: true }))
    expect(body.tools).toEqual([
      { name: "dangerous", valid: true, approvalRequired: true },
      { name: "echo", valid: true }
    ])
  })
})
