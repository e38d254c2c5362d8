import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createSandbox, startSandboxGateway, toolParts } from "../../sandbox/chat.ts"
import { eventually, marked, processesWith } from "../../sandbox/support.ts"
import { chatThroughAiSdk } from "../../support/chatClient.ts"
import type { TestGateway } from "../../support/gateway.ts"
import { bearer, chatBody, postJson } from "../../support/http.ts"

let gateway: TestGateway
let secret: string
let sandboxId: string

beforeAll(async () => {
  ;({ gateway } = await startSandboxGateway())
  ;({ secret } = await gateway.createKey({ tools: ["bash", "computer"] }))
  ;({ id: sandboxId } = await createSandbox(gateway, secret))
})
afterAll(() => gateway.close())

const call = (command: string, timeout_ms?: number) => ({
  type: "tool-calls" as const,
  calls: [{ name: "bash", arguments: timeout_ms === undefined ? { command } : { command, timeout_ms } }]
})

describe("the bash tool through /chat", () => {
  it("runs a tool loop over several steps; the workspace keeps its files", async () => {
    gateway.upstream.enqueue(
      call("mkdir -p notes && echo 'first line' > notes/log.txt && pwd"),
      call("echo 'second line' >> notes/log.txt; cat notes/log.txt; ls /"),
      call("exit 3"),
      { type: "text", text: "The log has two lines." }
    )
    const requestsBefore = gateway.upstream.requests.length
    const { message } = await chatThroughAiSdk(gateway.url, secret, [
      { id: "u1", role: "user", parts: [{ type: "text", text: "Keep a log" }] }
    ], { model: "test/m1", promptType: "generalComputerSystemPrompt", sandboxId })

    const outputs = (message?.parts ?? []).filter((part) => part.type === "dynamic-tool").map((part: any) =>
      part.output
    )
    expect(outputs).toHaveLength(3)
    expect(outputs[0]).toEqual({ stdout: "/workspace\n", stderr: "", exit_code: 0, truncated: false, timed_out: false })
    expect(outputs[1].stdout).toMatch(/^first line\nsecond line\n/)
    expect(outputs[1].stdout).toContain("workspace")
    expect(outputs[2]).toMatchObject({ exit_code: 3, timed_out: false })
    expect(message?.parts.at(-1)).toMatchObject({ type: "text", text: "The log has two lines." })

    // Every result went back to the model, in order.
    const lastRequest = gateway.upstream.requests.at(-1)!.body
    expect(gateway.upstream.requests.length - requestsBefore).toBe(4)
    const toolMessages = lastRequest.messages.filter((m: { role: string }) => m.role === "tool")
    expect(toolMessages).toHaveLength(3)
    expect(JSON.parse(toolMessages[1].content).stdout).toMatch(/^first line\nsecond line\n/)
    expect(lastRequest.tools.map((tool: any) => tool.function.name)).toEqual(["bash", "computer"])
  })

  it("refuses another key's sandbox (403) and names an unknown one (400), before any model call", async () => {
    const other = await gateway.createKey({ tools: ["bash"] })
    const requestsBefore = gateway.upstream.requests.length
    const foreign = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["bash"], sandboxId }),
      bearer(other.secret)
    )
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({
      error: "Forbidden",
      message: `Sandbox not available with your API key: ${sandboxId}`,
      details: { sandboxId }
    })
    const unknown = "sbx_0123456789abcdef01234567"
    const missing = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["bash"], sandboxId: unknown }),
      bearer(secret)
    )
    expect(missing.status).toBe(400)
    const body = await missing.json()
    expect(body.message).toContain(`Unknown sandbox "${unknown}"`)
    // A sandbox removed for idleness is unknown too: the message says it may have been.
    expect(body.message).toContain("went unused long enough to be removed")
    expect(body.details).toMatchObject({ sandboxId: unknown })
    // Without a sandbox tool the id is not looked at.
    gateway.upstream.enqueue({ type: "text", text: "hi" })
    const plain = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ sandboxId: unknown }), bearer(secret))
    expect(plain.status).toBe(200)
    expect(gateway.upstream.requests.length - requestsBefore).toBe(1)
  })

  it("runs 100 bash calls of one step: each waits its turn, none fails", async () => {
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: Array.from(
          { length: 100 },
          (_, i) => ({ name: "bash", arguments: { command: `sleep 0.05; echo ${i}` } })
        )
      },
      { type: "text", text: "All done." }
    )
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["bash"], sandboxId }),
      bearer(secret)
    )
    const parts = toolParts(await response.json())
    expect(parts).toHaveLength(100)
    expect(parts.map((part: any) => part.output?.stdout ?? part.errorText)).toEqual(
      Array.from({ length: 100 }, (_, i) => `${i}\n`)
    )
  }, 60_000)

  it("runs a command longer than an argument may be (128 KiB)", async () => {
    gateway.upstream.enqueue(call(`: ${"x".repeat(200 * 1024)}; echo ran`), { type: "text", text: "Ran." })
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["bash"], sandboxId }),
      bearer(secret)
    )
    const [part] = toolParts(await response.json())
    expect(part.output).toMatchObject({ stdout: "ran\n", exit_code: 0 })
  })

  it("reports a timeout to the model and goes on", async () => {
    gateway.upstream.enqueue(call("echo before; sleep 20", 300), { type: "text", text: "It timed out." })
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["bash"], sandboxId }),
      bearer(secret)
    )
    const [part] = toolParts(await response.json())
    expect(part.output).toMatchObject({ stdout: "before\n", exit_code: null, timed_out: true })
  })

  it("kills the command within a second when the client disconnects during sleep 1000", async () => {
    const marker = `disconnect-${Date.now()}`
    gateway.upstream.enqueue(call(marked(marker, "sleep 1000 & wait")))
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ stream: true, allowedTools: ["bash"], sandboxId }),
      bearer(secret)
    )
    const reader = response.body!.getReader()
    let seen = ""
    while (!seen.includes("tool-input-available")) seen += new TextDecoder().decode((await reader.read()).value)
    expect(await eventually(() => processesWith(`sleep 1000`).length > 0 && processesWith(marker).length > 0, 5_000))
      .toBe(true)
    const cancelledAt = Date.now()
    await reader.cancel()
    expect(await eventually(() => processesWith(marker).length === 0, 1_000, 10)).toBe(true)
    expect(Date.now() - cancelledAt).toBeLessThan(1_000)
  })
})
