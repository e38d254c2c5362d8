import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { postJson } from "../../support/http.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const tool = (name: string) => ({
  name,
  description: `The ${name} tool`,
  input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }
})

// The shape of Claude Code 2.1's requests (issue 21 part 4): betas, a system message inside messages, cache marks.
const claudeCodeBody = (stream: boolean) => ({
  model: "test/m1",
  max_tokens: 32_000,
  stream,
  system: [{ type: "text", text: "You are Claude Code.", cache_control: { type: "ephemeral" } }],
  messages: [
    { role: "system", content: "Project instructions." },
    {
      role: "user",
      content: [
        { type: "text", text: "<system-reminder>context</system-reminder>" },
        { type: "text", text: "List the files", cache_control: { type: "ephemeral" } }
      ]
    }
  ],
  tools: [tool("Read"), tool("Bash"), tool("Glob"), { type: "web_search_20250305", name: "web_search", max_uses: 8 }],
  thinking: { type: "adaptive" },
  output_config: { effort: "high" },
  context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] },
  metadata: { user_id: "user_abc_account_def_session_ghi" }
})

const headers = () => ({
  "x-api-key": secret,
  "anthropic-version": "2023-06-01",
  "anthropic-beta": "claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27"
})

describe("a request shaped as Claude Code sends it (issue 21 part 4)", () => {
  it("streams an answer, its hosted tool named as skipped, the system messages as the system prompt", async () => {
    gateway.upstream.enqueue({ type: "text", text: "README.md" })
    const response = await postJson(`${gateway.url}/v1/messages?beta=true`, claudeCodeBody(true), headers())
    expect(response.status).toBe(200)
    expect(response.headers.get("x-tools-skipped")).toBe("web_search")
    const events = (await response.text()).split("\n\n").filter((event) => event !== "")
    expect(events[0]).toMatch(/^event: message_start\ndata: /)
    expect(events.at(-1)).toBe(`event: message_stop\ndata: {"type":"message_stop"}`)
    const sent = gateway.upstream.requests.at(-1)!.body
    expect(sent.messages[0]).toEqual({ role: "system", content: "You are Claude Code.\n\nProject instructions." })
    expect(sent.tools.map((offered: any) => offered.function.name)).toEqual(["Read", "Bash", "Glob"])
  })

  it("answers the non-streamed call beside them", async () => {
    gateway.upstream.enqueue({ type: "text", text: "A title" })
    const response = await postJson(`${gateway.url}/v1/messages?beta=true`, claudeCodeBody(false), headers())
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ type: "message", content: [{ type: "text", text: "A title" }] })
  })

  it("refuses the classifier of tool calls that auto mode asks for, naming it, so Claude Code uses its local one", async () => {
    const before = gateway.upstream.requests.length
    // As Claude Code 2.1.332 sends it with --permission-mode auto (shortened).
    const safeguards = [{
      type: "dangerous_tool_use",
      classifier_context: { v: 1, permission_mode: "auto", platform: "linux", rules: { allow: [], deny: [], ask: [] } }
    }]
    const response = await postJson(`${gateway.url}/v1/messages?beta=true`, {
      ...claudeCodeBody(true),
      safeguards
    }, headers())
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } })
    expect(body.error.message).toContain(`"safeguards" is not supported`)
    expect(gateway.upstream.requests).toHaveLength(before)
  })
})
