import { afterAll, beforeAll, describe, expect, it } from "vitest"
import codexToolTurn from "../../clients/fixtures/codex-tool-turn.json" with { type: "json" }
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { checkStream } from "../../support/openResponses.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const parameters = (name: string) => ({
  type: "object",
  properties: { [name]: { type: "string" } },
  required: [name],
  additionalProperties: false
})

// The shape of Codex CLI 0.171's requests (issue 21 part 4), a later turn: its earlier reasoning and its shell's call.
const codexBody = {
  model: "test/m1",
  instructions: "You are Codex, a coding agent.",
  input: [
    {
      type: "message",
      role: "developer",
      content: [{
        type: "input_text",
        text: "<permissions instructions>sandbox: workspace-write</permissions instructions>"
      }]
    },
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<environment_context><cwd>/repo</cwd></environment_context>" }]
    },
    { type: "message", role: "user", content: [{ type: "input_text", text: "List the files" }] },
    {
      type: "reasoning",
      id: "rs_0a1b",
      summary: [{ type: "summary_text", text: "**Listing files**" }],
      content: null,
      encrypted_content: null
    },
    {
      type: "function_call",
      id: "fc_0a1b",
      name: "exec_command",
      arguments: JSON.stringify({ cmd: "ls", workdir: "/repo" }),
      call_id: "call_ls"
    },
    { type: "function_call_output", call_id: "call_ls", output: "README.md\nsrc\n" },
    { type: "reasoning", id: "rs_0a1c", summary: [], encrypted_content: "gAAAAABo-opaque" },
    {
      type: "message",
      role: "assistant",
      id: "msg_0a1d",
      content: [{ type: "output_text", text: "Two entries.", annotations: [] }]
    },
    { type: "message", role: "user", content: [{ type: "input_text", text: "Which one is a folder?" }] }
  ],
  tools: [
    {
      type: "function",
      name: "exec_command",
      description: "Runs a command in a PTY.",
      strict: false,
      parameters: parameters("cmd")
    },
    {
      type: "function",
      name: "write_stdin",
      description: "Writes to a session.",
      strict: false,
      parameters: parameters("chars")
    },
    {
      type: "custom",
      name: "apply_patch",
      description: "Edits files with a patch.",
      format: { type: "grammar", syntax: "lark", definition: "start: begin_patch hunk+ end_patch" }
    },
    {
      type: "function",
      name: "update_plan",
      description: "Updates the plan.",
      strict: false,
      parameters: parameters("plan")
    },
    { type: "web_search", external_web_access: false }
  ],
  tool_choice: "auto",
  parallel_tool_calls: false,
  reasoning: { effort: "medium", summary: "auto" },
  store: false,
  stream: true,
  include: ["reasoning.encrypted_content"],
  prompt_cache_key: "019a7c1e-5b1f-7a40-9d51-3c2a7f1b0e2d",
  text: { verbosity: "low" },
  client_metadata: { originator: "codex_exec", session_id: "019a7c1e" }
}

describe("a request shaped as Codex CLI sends it (issue 21 part 4)", () => {
  it("streams an answer, its hosted and custom tools named as skipped, its shell's call and output sent on", async () => {
    gateway.upstream.enqueue({ type: "text", text: "README.md and src." })
    const response = await postJson(`${gateway.url}/v1/responses`, codexBody, {
      ...bearer(secret),
      originator: "codex_exec",
      "openai-beta": "responses=experimental"
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("text/event-stream")
    expect(response.headers.get("x-tools-skipped")).toBe("apply_patch,web_search")
    // The Open Responses specification's document takes every event (issue 34 part 4).
    const { problems, read } = checkStream(await response.text())
    expect(problems).toEqual([])
    expect(read.events[0]!.data.type).toBe("response.created")
    const completed = read.events.at(-1)!.data
    expect(completed.type).toBe("response.completed")
    expect(completed.response).toMatchObject({
      status: "completed",
      store: false,
      prompt_cache_key: codexBody.prompt_cache_key
    })
    expect(completed.response.output[0].content[0].text).toBe("README.md and src.")

    const sent = gateway.upstream.requests.at(-1)!.body
    expect(sent.messages[0].role).toBe("system")
    expect(sent.messages[0].content).toContain("You are Codex")
    expect(sent.messages[0].content).toContain("sandbox: workspace-write")
    expect(sent.tools.map((tool: any) => tool.function.name)).toEqual(["exec_command", "write_stdin", "update_plan"])
    expect(sent.reasoning_effort).toBe("medium")
    expect(sent.messages.slice(-4)).toMatchObject([
      { role: "assistant", reasoning_content: "**Listing files**", tool_calls: [{ id: "call_ls" }] },
      { role: "tool", tool_call_id: "call_ls", content: "README.md\nsrc\n" },
      { role: "assistant", content: "Two entries." },
      { role: "user", content: "Which one is a folder?" }
    ])
  })

  it("takes the later turn Codex CLI 0.171 sent (captured, test/clients/fixtures) with its own headers", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Done." })
    const response = await postJson(`${gateway.url}/v1/responses`, codexToolTurn.body, {
      ...codexToolTurn.headers,
      ...bearer(secret)
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("x-tools-skipped")).toBe("multi_agent_v1,web_search")
    expect(await response.text()).toContain("event: response.completed")
    const sent = gateway.upstream.requests.at(-1)!.body
    const offered = codexToolTurn.body.tools.flatMap((tool: any) => tool.type === "function" ? [tool.name] : [])
    expect(sent.tools.map((tool: any) => tool.function.name)).toEqual(offered)
    const output = codexToolTurn.body.input.find((item: any) => item.type === "function_call_output") as any
    expect(sent.messages.find((message: any) => message.role === "tool")).toMatchObject({
      tool_call_id: output.call_id
    })
  })
})
