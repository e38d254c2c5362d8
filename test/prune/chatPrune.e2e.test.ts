import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"
import { png, textOf } from "./conversations.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo", description: textOf(5, 300) })] })
  ;({ secret } = await gateway.createKey())
  gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
})
afterAll(() => gateway.close())

const chat = (body: unknown) => postJson(`${gateway.url}/api/v1/chat`, body, bearer(secret))

/** A computer-use session in full UIMessage form: a screenshot per step, a long log, then a new question. */
const session = [
  {
    id: "u1",
    role: "user",
    parts: [{ type: "text", text: `Open the job board and apply to the first offer. ${textOf(2, 600)}` }]
  },
  {
    id: "a1",
    role: "assistant",
    parts: [1, 2, 3].flatMap((step) => [
      { type: "step-start" },
      { type: "reasoning", text: `Step ${step}: look at the screen.` },
      {
        type: "dynamic-tool",
        toolName: "computer",
        toolCallId: `shot-${step}`,
        state: "output-available",
        input: { action: "screenshot" },
        output: {
          type: "content",
          value: [{ type: "text", text: `screen ${step}` }, { type: "image-data", data: png, mediaType: "image/png" }]
        }
      }
    ])
  },
  { id: "u2", role: "user", parts: [{ type: "text", text: "Show me the server log." }] },
  {
    id: "a2",
    role: "assistant",
    parts: [{
      type: "dynamic-tool",
      toolName: "bash",
      toolCallId: "log",
      state: "output-available",
      input: { command: "cat server.log" },
      output: { stdout: textOf(11, 4_000), exit_code: 0 }
    }, { type: "text", text: "Here it is." }]
  },
  { id: "u3", role: "user", parts: [{ type: "text", text: "Summarize what happened." }] }
]

const sentTo = (index: number) => gateway.upstream.requests[index]!.body
const prune = (targetTokens: number, extra: Record<string, unknown> = {}) =>
  chatBody({
    messages: session,
    prune: true,
    pruneOptions: { targetTokens, preserveRecentMessages: 1, maxOutputTokens: 1_000 },
    ...extra
  })

describe("prune=true end to end", () => {
  it("sends old screenshots as placeholders when that is enough, and says so", async () => {
    const before = gateway.upstream.requests.length
    const response = await chat(prune(7_000))
    expect(response.status).toBe(200)
    expect(response.headers.get("x-message-pruned")).toBe("true")
    const sent = JSON.stringify(sentTo(before).messages)
    expect(sent).not.toContain(png.slice(0, 100))
    expect(sent.match(/\[image omitted by pruning\]/g)).toHaveLength(3)
    expect(sent).toContain("Open the job board")
    expect(sent).toContain(textOf(11, 4_000).slice(-200))
    // The answer still carries the whole history the caller sent.
    expect((await response.json()).data.messages).toHaveLength(session.length + 1)
  })

  it("drops the oldest exchange, tool calls with their results, under a tight budget", async () => {
    const before = gateway.upstream.requests.length
    const response = await chat(prune(1_500))
    expect(response.headers.get("x-message-pruned")).toBe("true")
    const messages: Array<any> = sentTo(before).messages
    const sent = JSON.stringify(messages)
    expect(sent).not.toContain("Open the job board")
    expect(sent).not.toContain("shot-1")
    expect(sent).toContain("characters omitted by pruning")
    expect(messages[0].role).toBe("system")
    expect(messages[1]).toMatchObject({ role: "user", content: "Show me the server log." })
    const call = messages.find((message) => message.role === "assistant" && message.tool_calls !== undefined)
    const result = messages.find((message) => message.role === "tool")
    expect(result.tool_call_id).toBe(call.tool_calls[0].id)
    expect(messages.at(-1)).toMatchObject({ role: "user", content: "Summarize what happened." })
  })

  it("sends everything unchanged, and no header, under budget", async () => {
    const before = gateway.upstream.requests.length
    const response = await chat(prune(100_000, { pruneOptions: { targetTokens: 100_000, maxOutputTokens: 1_000 } }))
    expect(response.headers.get("x-message-pruned")).toBeNull()
    expect(JSON.stringify(sentTo(before).messages)).toContain(png.slice(0, 100))
  })
})

describe("a report previews pruning without running the model", () => {
  it("validateOnly with prune=true returns the prune section, tokens before counted exactly", async () => {
    const before = gateway.upstream.requests.length
    const response = await chat(prune(1_500, { validateOnly: true }))
    expect(response.status).toBe(200)
    expect(response.headers.get("x-message-pruned")).toBeNull()
    const report = await response.json()
    expect(report).toMatchObject({ valid: true, prune: { messagesRemoved: 2, stage: "messages" } })
    expect(report.prune.tokensAfter).toBeLessThanOrEqual(1_500)
    const unpruned = await (await chat(
      prune(100_000, { validateOnly: true, pruneOptions: { targetTokens: 100_000, maxOutputTokens: 1_000 } })
    )).json()
    expect(unpruned.prune.stage).toBe("none")
    expect(report.prune.tokensBefore).toBe(unpruned.prune.tokensBefore)
    expect(gateway.upstream.requests.length).toBe(before)
  })

  it("names the cheapest stage, and counts the tools the request would offer", async () => {
    const images = await (await chat(prune(7_000, { validateOnly: true }))).json()
    expect(images.prune).toMatchObject({ stage: "images", messagesRemoved: 0 })
    const withTool = await (await chat(prune(7_000, { validateOnly: true, allowedTools: ["echo"] }))).json()
    expect(withTool.prune.tokensAfter).toBeGreaterThan(images.prune.tokensAfter + 300)
  })

  it("contextStrategy=report previews too; nothing to prune is stage none; no prune section without prune=true", async () => {
    const report = await (await chat(
      prune(100_000, { contextStrategy: "report", pruneOptions: { targetTokens: 100_000, maxOutputTokens: 1_000 } })
    )).json()
    expect(report.prune).toMatchObject({ stage: "none", messagesRemoved: 0 })
    expect(report.prune.tokensBefore).toBe(report.prune.tokensAfter)
    const plain = await (await chat(chatBody({ messages: session, validateOnly: true }))).json()
    expect(plain.prune).toBeUndefined()
  })

  it("an invalid budget is a 400 in a report as in a run", async () => {
    const response = await chat(prune(200_000, { validateOnly: true }))
    expect(response.status).toBe(400)
    expect((await response.json()).message).toContain("exceeds the model's context window")
  })
})
