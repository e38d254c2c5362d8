import { randomUUID } from "node:crypto"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { Reply } from "../../src/demo/upstream/types.ts"
import { agentClient, INSTALL_TIMEOUT_MS } from "../support/clients/install.ts"
import { runClient, tempDir } from "../support/clients/run.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"

// Claude Code as npm installs it (@anthropic-ai/claude-code, its native binary, installed by the tests) running `claude -p` against
// parley's /v1/messages, parley's model the scripted upstream. Issue 21: "Tests with real clients, unchanged".

let gateway: TestGateway
let keyId: string
let secret: string
let home: Awaited<ReturnType<typeof tempDir>>
let work: Awaited<ReturnType<typeof tempDir>>
let bin: string

// The first run on a machine installs the client (test/support/clients/install.ts).
beforeAll(async () => {
  bin = await agentClient("claude")
}, INSTALL_TIMEOUT_MS)
beforeAll(async () => {
  gateway = await startGateway()
  ;({ id: keyId, secret } = await gateway.createKey())
  // A HOME of its own: the developer's ~/.claude (settings, credentials, CLAUDE.md) stays out of the run.
  home = await tempDir("claude-home")
  work = await tempDir("claude-work")
})
afterAll(async () => {
  await gateway?.close()
  await home?.remove()
  await work?.remove()
})

const claude = (prompt: string, options: ReadonlyArray<string>, key = secret) =>
  runClient(bin, ["-p", prompt, ...options], {
    cwd: work.path,
    env: {
      HOME: home.path,
      // Claude Code keeps per-project state under $TMPDIR/claude-<uid>: in HOME, it goes when HOME does.
      TMPDIR: home.path,
      ANTHROPIC_BASE_URL: gateway.url,
      ANTHROPIC_API_KEY: key,
      ANTHROPIC_MODEL: "test/m1",
      // A model id Claude Code does not know gets a 1M-token window and a warning without this.
      CLAUDE_CODE_MAX_CONTEXT_TOKENS: "128000",
      // Offline: no update checks, telemetry, error reports or MCP registry lookups at api.anthropic.com.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1"
    }
  })

/** The key's ledger rows once there are `count` (a row is pushed as its request ends, which may follow the client's exit). */
const ledger = (id: string, count: number) =>
  vi.waitFor(async () => {
    const rows = await gateway.ledgerRows({ keyId: id })
    expect(rows).toHaveLength(count)
    return rows
  }, { timeout: 10_000 })

const toolMessage = (body: any) => body.messages.findLast((message: any) => message.role === "tool")

/**
 * The model's side of a one-tool task: call `tool` first, then answer with what
 * came back. Anything else Claude Code asks (a request without its tools, as
 * a title or summary call would be) gets a plain answer.
 */
const script = (tool: string, input: Record<string, unknown>, answer: (result: string) => string) =>
  gateway.upstream.respondWith((body): Reply => {
    const offered = (body.tools ?? []).some((t: any) => t.function?.name === tool)
    if (!offered) return { type: "text", text: "parley" }
    const result = toolMessage(body)
    if (result === undefined) {
      return { type: "tool-calls", calls: [{ id: `call_${tool}`, name: tool, arguments: input }] }
    }
    return { type: "text", text: answer(String(result.content)) }
  })

// Each run takes 1–3 s on a quiet machine; the margin is for a loaded one (runClient kills a run after 60 s).
describe("Claude Code (claude -p) through parley's /v1/messages", { timeout: 90_000 }, () => {
  it("reads a file with its own Read tool and answers with what it read", async () => {
    const content = `parley-notes-${randomUUID()}`
    const file = join(work.path, "notes.txt")
    await writeFile(file, `${content}\n`)
    script("Read", { file_path: file }, (result) => `The notes say ${result.match(/parley-notes-[\w-]+/)?.[0]}.`)
    const before = gateway.upstream.requests.length

    const run = await claude("What do the notes in notes.txt say?", ["--allowedTools", "Read"])

    expect(run, run.stderr).toMatchObject({ code: 0 })
    expect(run.stdout.trim()).toBe(`The notes say ${content}.`)
    const sent = gateway.upstream.requests.slice(before).map((request) => request.body)
    expect(sent).toHaveLength(2)
    expect(sent[0].stream).toBe(true)
    expect(sent[0].tools.map((tool: any) => tool.function.name)).toEqual(expect.arrayContaining(["Read", "Bash"]))
    // The call went back to Claude Code, which read the file and sent its content as the call's result.
    expect(toolMessage(sent[0])).toBeUndefined()
    expect(sent[1].messages.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_Read" }] })
    expect(toolMessage(sent[1])).toMatchObject({ tool_call_id: "call_Read", content: expect.stringContaining(content) })
  })

  it("runs a command with its own Bash tool", async () => {
    const marker = `parley-echo-${randomUUID()}`
    script(
      "Bash",
      { command: `echo ${marker}`, description: "Print the marker" },
      (result) => `Bash printed: ${result}`
    )
    const before = gateway.upstream.requests.length

    const run = await claude("Echo the marker", ["--allowedTools", "Bash(echo:*)"])

    expect(run, run.stderr).toMatchObject({ code: 0 })
    expect(run.stdout.trim()).toBe(`Bash printed: ${marker}`)
    const sent = gateway.upstream.requests.slice(before).map((request) => request.body)
    expect(toolMessage(sent.at(-1))).toMatchObject({ tool_call_id: "call_Bash", content: marker })
  })

  it("recorded every request in the ledger as protocol messages, and parley refused none", async () => {
    const rows = await ledger(keyId, gateway.upstream.requests.length)
    for (const row of rows) expect(row).toMatchObject({ protocol: "messages", status: 200, model: "test/m1" })
    expect(JSON.stringify(rows)).not.toContain(UPSTREAM_API_KEY)
  })

  it("in auto mode, is refused the server's tool-call classifier (safeguards) and goes on with its own", async () => {
    const { id, secret: own } = await gateway.createKey()
    gateway.upstream.respondWith((): Reply => ({ type: "text", text: "Nothing to run." }))
    const before = gateway.upstream.requests.length

    const run = await claude("Anything to run?", ["--permission-mode", "auto"], own)

    expect(run, run.stderr).toMatchObject({ code: 0, stdout: "Nothing to run.\n" })
    // Its first request asked for the classifier: 400 before the model; the same request without it went through.
    const rows = await ledger(id, 2)
    expect(rows.map((row) => [row.protocol, row.status, row.outcome]).sort()).toEqual([
      ["messages", 200, "finished"],
      ["messages", 400, "rejected"]
    ])
    expect(gateway.upstream.requests.length - before).toBe(1)
  })
})
