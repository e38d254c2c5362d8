import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { Reply } from "../../src/demo/upstream/types.ts"
import { runCodex } from "../support/clients/codex.ts"
import { agentClient, INSTALL_TIMEOUT_MS } from "../support/clients/install.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"

// Codex CLI as npm installs it (@openai/codex, its native binary, installed by the tests) running `codex exec` against parley's
// POST /v1/responses, parley's model the scripted upstream. Issue 21: "Tests with real clients, unchanged".

let gateway: TestGateway
let secret: string

// The first run on a machine installs the client (test/support/clients/install.ts).
beforeAll(() => agentClient("codex"), INSTALL_TIMEOUT_MS)
beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway?.close())

const toolMessage = (body: any) => body.messages.findLast((message: any) => message.role === "tool")

// A run takes about a second on a quiet machine; the margin is for a loaded one (runClient kills it after 60 s).
describe(
  "Codex CLI (codex exec) through parley's /v1/responses",
  { timeout: 90_000 },
  () => {
    it("runs a command with its own exec_command tool and answers with the command's output", async () => {
      const marker = `parley-codex-${randomBytes(6).toString("hex")}`
      // The model's side: call Codex's shell tool, then answer with the output it got back.
      gateway.upstream.respondWith((body): Reply => {
        const result = toolMessage(body)
        if (result === undefined) {
          return {
            type: "tool-calls",
            calls: [{ id: "call_sh", name: "exec_command", arguments: { cmd: `echo ${marker}` } }]
          }
        }
        return { type: "text", text: `The command printed ${String(result.content).match(/parley-codex-\w+/)?.[0]}.` }
      })

      const run = await runCodex({ baseUrl: `${gateway.url}/v1`, apiKey: secret, prompt: `Run echo ${marker}` })

      expect(run, run.stderr).toMatchObject({ code: 0 })
      expect(run.stdout.trim()).toBe(`The command printed ${marker}.`)
      const sent = gateway.upstream.requests.map((request) => request.body)
      expect(sent).toHaveLength(2)
      expect(sent[0].tools.map((tool: any) => tool.function.name)).toContain("exec_command")
      // Codex ran the command and sent its output back as the call's result.
      expect(sent[1].messages.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_sh" }] })
      expect(toolMessage(sent[1])).toMatchObject({ tool_call_id: "call_sh", content: expect.stringContaining(marker) })

      // A row is pushed as its request ends, which may come just after the client has read the end and left.
      const rows = await vi.waitFor(async () => {
        const written = await gateway.ledgerRows()
        expect(written).toHaveLength(2)
        return written
      }, { timeout: 10_000 })
      for (const row of rows) expect(row).toMatchObject({ protocol: "responses", status: 200, model: "test/m1" })
      expect(run.stdout + run.stderr).not.toContain(UPSTREAM_API_KEY)
    })
  }
)
