import { randomBytes } from "node:crypto"
import { readFile, writeFile } from "node:fs/promises"
import { beforeAll, describe, expect, it } from "vitest"
import { runCodex } from "../support/clients/codex.ts"
import { agentClient, INSTALL_TIMEOUT_MS } from "../support/clients/install.ts"
import { type CapturedRequest, type EventChoice, startResponsesCapture } from "../support/clients/responsesCapture.ts"

// What Codex CLI 0.171 sends to POST /v1/responses and which stream events it needs, learnt against a minimal
// Responses server (never parley: codex.test.ts runs Codex against parley). The fixtures are the Responses door's
// captured requests (issue 21 part 4); `UPDATE_CODEX_FIXTURES=1` captures them again after a Codex upgrade.

// The first run on a machine installs the client (test/support/clients/install.ts).
beforeAll(() => agentClient("codex"), INSTALL_TIMEOUT_MS)

const fixture = (name: string) => new URL(`fixtures/${name}.json`, import.meta.url)
const FIXTURES = { first: fixture("codex-first-turn"), tool: fixture("codex-tool-turn") }

/** Runs `codex exec` against a capture server whose model calls exec_command once, then answers. */
const capture = async (marker: string, choice: EventChoice = {}, providerLines?: string) => {
  const server = await startResponsesCapture(
    (body) =>
      JSON.stringify(body.input).includes("function_call_output")
        ? { type: "text", text: `Done: ${marker}` }
        : {
          type: "function_call",
          name: "exec_command",
          arguments: { cmd: `echo ${marker}` },
          reasoning: "Run the command."
        },
    choice
  )
  try {
    const run = await runCodex({
      baseUrl: server.url,
      apiKey: "pk_capture_key",
      prompt: `Run echo ${marker}`,
      ...(providerLines === undefined ? {} : { providerLines })
    })
    return { run, requests: [...server.requests] }
  } finally {
    await server.close()
  }
}

/** A request without what differs per run or machine: directories, ids, the key. */
const sanitize = (request: CapturedRequest, dirs: { cwd: string; home: string }) => {
  const { authorization: _key, host: _host, "content-length": _length, ...headers } = request.headers
  const ids = new Map<string, string>()
  const text = JSON.stringify({ client: "codex-cli 0.171.0", headers, body: request.body })
    .replaceAll(dirs.cwd, "/home/user/project")
    .replaceAll(dirs.home, "/home/user/.codex")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (!ids.has(id)) ids.set(id, `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, "0")}`)
      return ids.get(id)!
    })
  return JSON.parse(text)
}

/** What a Responses door must understand of a request: fields, items, tools (not the prompts' wording). */
const shape = (body: any) => ({
  fields: Object.keys(body).sort(),
  settings: {
    store: body.store,
    stream: body.stream,
    include: body.include,
    reasoning: body.reasoning,
    tool_choice: body.tool_choice,
    parallel_tool_calls: body.parallel_tool_calls
  },
  input: body.input.map((item: any) => [item.type, item.role ?? null, Object.keys(item).sort().join(",")]),
  tools: body.tools.map((tool: any) => [tool.type, tool.name ?? null])
})

// Each run takes about a second on a quiet machine; the margin is for a loaded one (runClient kills it after 60 s).
describe("what Codex CLI sends to /v1/responses", { timeout: 90_000 }, () => {
  it("matches the captured first-turn and tool-turn fixtures", async () => {
    const marker = `parley-codex-${randomBytes(6).toString("hex")}`
    const { run, requests } = await capture(marker)
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: `Done: ${marker}\n` })
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/responses",
      "POST /v1/responses"
    ])
    const [first, tool] = requests.map((request) => sanitize(request, run))
    if (process.env.UPDATE_CODEX_FIXTURES === "1") {
      await writeFile(FIXTURES.first, `${JSON.stringify(first, null, 2)}\n`)
      await writeFile(FIXTURES.tool, `${JSON.stringify(tool, null, 2)}\n`)
    }
    const pinned = {
      first: JSON.parse(await readFile(FIXTURES.first, "utf8")),
      tool: JSON.parse(await readFile(FIXTURES.tool, "utf8"))
    }
    expect(shape(first.body)).toEqual(shape(pinned.first.body))
    expect(shape(tool.body)).toEqual(shape(pinned.tool.body))
    expect(JSON.stringify(pinned)).not.toContain("pk_capture_key")
    expect(requests[0]!.headers.authorization).toBe("Bearer pk_capture_key")

    // The later turn carries the model's reasoning (sealed, as OpenAI's encrypted_content) and the call back, with
    // Codex's own output of the command.
    const items = tool.body.input.slice(-3)
    expect(items[0]).toMatchObject({
      type: "reasoning",
      summary: [{ type: "summary_text", text: "Run the command." }],
      encrypted_content: expect.any(String)
    })
    expect(items[1]).toMatchObject({ type: "function_call", name: "exec_command", call_id: "call_1" })
    expect(items[2]).toMatchObject({
      type: "function_call_output",
      call_id: "call_1",
      output: expect.stringContaining(marker)
    })
  })
})

describe("the stream events Codex needs", { timeout: 90_000 }, () => {
  it("takes output_item.done for each item and a response.completed carrying only the id", async () => {
    const marker = `parley-codex-${randomBytes(6).toString("hex")}`
    const { run, requests } = await capture(marker, {
      created: false,
      added: false,
      deltas: false,
      completed: "bare"
    })
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: `Done: ${marker}\n` })
    expect(requests).toHaveLength(2)
  })

  it("ignores the items of response.completed: without output_item.done it ran nothing and answered nothing", async () => {
    const { run, requests } = await capture(`parley-codex-${randomBytes(6).toString("hex")}`, { done: false })
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: "" })
    expect(requests).toHaveLength(1)
  })

  it("fails a stream that ends without response.completed (after its retries)", async () => {
    const { run, requests } = await capture(
      `parley-codex-${randomBytes(6).toString("hex")}`,
      { completed: "none" },
      "stream_max_retries = 0"
    )
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain("stream closed before response.completed")
    expect(requests).toHaveLength(1)
  })
})
