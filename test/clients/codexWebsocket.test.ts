import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { Reply } from "../../src/demo/upstream/types.ts"
import { runCodex } from "../support/clients/codex.ts"
import { agentClient, INSTALL_TIMEOUT_MS } from "../support/clients/install.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"

// Codex CLI (its npm package's native binary) with `supports_websockets = true` on its provider: its turns go over
// parley's /v1/responses in WebSocket mode (issue 34 part 6). Codex falls back to HTTP when the upgrade fails, so the
// test reads the gateway's request lines: the upgrade answered 101, each turn a line of its own, no POST.

let gateway: TestGateway
let secret: string
const lines: Array<Record<string, any>> = []

beforeAll(() => agentClient("codex"), INSTALL_TIMEOUT_MS)
beforeAll(async () => {
  gateway = await startGateway({ observe: { logSink: (line) => void lines.push(JSON.parse(line)) } })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway?.close())

const toolMessage = (body: any) => body.messages.findLast((message: any) => message.role === "tool")
const requestLines = () => lines.filter((line) => line.msg === "request" && line.path === "/v1/responses")

describe("Codex CLI over parley's Responses WebSocket", { timeout: 90_000 }, () => {
  it("runs a command and answers, every turn on the WebSocket, none over HTTP", async () => {
    const marker = `parley-codex-ws-${randomBytes(6).toString("hex")}`
    gateway.upstream.respondWith((body): Reply => {
      const result = toolMessage(body)
      if (result === undefined) {
        return {
          type: "tool-calls",
          calls: [{ id: "call_ws", name: "exec_command", arguments: { cmd: `echo ${marker}` } }]
        }
      }
      return { type: "text", text: `The command printed ${String(result.content).match(/parley-codex-ws-\w+/)?.[0]}.` }
    })

    const run = await runCodex({
      baseUrl: `${gateway.url}/v1`,
      apiKey: secret,
      prompt: `Run echo ${marker}`,
      providerLines: "supports_websockets = true"
    })

    expect(run, run.stderr).toMatchObject({ code: 0 })
    expect(run.stdout.trim()).toBe(`The command printed ${marker}.`)
    // Codex ran the command and sent its output back: the model's second call has it.
    const sent = gateway.upstream.requests.map((request) => request.body)
    expect(sent).toHaveLength(2)
    expect(toolMessage(sent[1])).toMatchObject({ tool_call_id: "call_ws", content: expect.stringContaining(marker) })

    // Three turns on one connection: Codex's warm-up (`generate: false`, no model call), the call, the answer
    // (which continues the call's response by previous_response_id, unstored).
    const rows = await vi.waitFor(async () => {
      const written = await gateway.ledgerRows()
      expect(written).toHaveLength(3)
      return written
    }, { timeout: 10_000 })
    for (const row of rows) expect(row).toMatchObject({ protocol: "responses", status: 200, model: "test/m1" })
    expect(rows.map((row) => row.finishReason).sort()).toEqual(["stop", "stop", "tool-calls"])
    expect(rows.filter((row) => row.inputTokens === null)).toHaveLength(1)

    const seen = requestLines().map((line) => `${line.method} ${line.status}`)
    expect(seen).toEqual(["GET 101", "GET 200", "GET 200", "GET 200"])
    expect(run.stdout + run.stderr).not.toContain(UPSTREAM_API_KEY)
  })
})
