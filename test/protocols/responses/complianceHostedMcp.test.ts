import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { startHostedMcpGateway } from "../../support/mcp/hostedGateway.ts"
import { checkStream, responseProblems } from "../../support/openResponses.ts"
import { makeTestTool } from "../../support/tools.ts"

/**
 * Hosted MCP tools on `/v1/responses` against the Open Responses
 * specification's document (issue 34 part 4): their items and events are
 * OpenAI's (`mcp_list_tools`, `mcp_call`, `mcp_approval_request`,
 * `response.mcp_*`), which the document does not define and which parley
 * keeps unprefixed (docs/DESIGN.md §14, departures); everything else in
 * such an answer validates, and nothing else departs.
 */
let gateway: TestGateway
let close: () => Promise<void>
let secret: string

beforeAll(async () => {
  ;({ close, gateway } = await startHostedMcpGateway([makeTestTool({ name: "echo" }), makeTestTool({ name: "risky" })]))
  ;({ secret } = await gateway.createKey({ tools: ["echo", "risky"], approve: ["risky"] }))
}, 30_000)
afterAll(() => close?.())

const OPENAI_ITEMS = ["mcp_list_tools", "mcp_call", "mcp_approval_request"]
const OPENAI_EVENTS = [
  "response.mcp_list_tools.in_progress",
  "response.mcp_list_tools.completed",
  "response.mcp_call.in_progress",
  "response.mcp_call_arguments.delta",
  "response.mcp_call_arguments.done",
  "response.mcp_call.completed"
]

const post = (body: Record<string, unknown>) =>
  postJson(`${gateway.url}/v1/responses`, {
    model: "test/m1",
    input: "Go",
    tools: [{ type: "mcp", server_label: "parley" }],
    ...body
  }, bearer(secret))

const call = (name: string) => ({
  type: "tool-calls" as const,
  calls: [{ id: `call_${name}`, name, arguments: { text: "hi" } }]
})

describe("hosted MCP answers against the document (issue 34 part 4)", () => {
  it("a streamed call: only OpenAI's MCP items and events depart, each set aside once named", async () => {
    gateway.upstream.enqueue(call("echo"), { type: "text", text: "Done." })
    const text = await (await post({ stream: true })).text()
    const check = checkStream(text, { extensions: { events: OPENAI_EVENTS, items: OPENAI_ITEMS } })
    expect(check.problems).toEqual([])
    expect(check.undefinedTypes).toEqual(OPENAI_EVENTS)
    // Named nothing, the same stream departs exactly there.
    const bare = checkStream(text).problems
    expect(bare.length).toBeGreaterThan(0)
    expect(bare.every((problem) => /mcp|item|output/.test(problem))).toBe(true)
    const output = check.read.events.at(-1)!.data.response.output.map((item: { type: string }) => item.type)
    expect(output).toEqual(["mcp_list_tools", "mcp_call", "message"])
  })

  it("an approval request, whole: the response validates once OpenAI's MCP items are set aside", async () => {
    gateway.upstream.enqueue(call("risky"))
    const response = await (await post({})).json()
    expect(response.output.map((item: { type: string }) => item.type)).toEqual([
      "mcp_list_tools",
      "mcp_approval_request"
    ])
    expect(responseProblems({ ...response, output: [] })).toEqual([])
    expect(responseProblems(response).length).toBeGreaterThan(0)
  })
})
