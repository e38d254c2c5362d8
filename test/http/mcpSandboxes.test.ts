import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createSandbox, startSandboxGateway } from "../sandbox/chat.ts"
import type { TestGateway } from "../support/gateway.ts"
import { textOf, withParleyClient } from "../support/mcp/parleyClient.ts"

let gateway: TestGateway

beforeAll(async () => {
  ;({ gateway } = await startSandboxGateway())
}, 60_000)
afterAll(() => gateway?.close())

/** Runs `command` with the `bash` tool through /mcp as `secret`, in the sandbox `sandboxId` when given. */
const bash = (secret: string, command: string, sandboxId?: string) =>
  withParleyClient(gateway.url, secret, (client) =>
    Effect.gen(function*() {
      const tool = (yield* client.listTools()).find((t) => t.name === "bash")!
      const result = yield* client.callTool({
        tool,
        arguments: { command, ...(sandboxId === undefined ? {} : { _sandboxId: sandboxId }) }
      })
      return { isError: result.isError ?? false, text: textOf(result) }
    }))

describe("sandboxes of /mcp tool calls (docs/DESIGN.md §9)", () => {
  it("runs a sandbox tool only in a sandbox the key may use, and records each refusal", async () => {
    const mine = await gateway.createKey({ tools: ["bash"] })
    const theirs = await gateway.createKey({ tools: ["bash"] })
    const sandbox = await createSandbox(gateway, mine.secret)

    expect(await bash(theirs.secret, "touch /workspace/intruded", sandbox.id)).toEqual({
      isError: true,
      text: `Sandbox not available with your API key: ${sandbox.id}`
    })
    expect(await bash(theirs.secret, "true")).toEqual({
      isError: true,
      text: "Missing a sandbox: send its id as arguments._sandboxId (POST /api/v1/sandboxes makes one)"
    })
    const unknown = await bash(theirs.secret, "true", "sbx_000000000000000000000000")
    expect(unknown.isError).toBe(true)
    expect(unknown.text).toContain(`Unknown sandbox "sbx_000000000000000000000000"`)

    const listed = await bash(mine.secret, "ls -A /workspace; echo done", sandbox.id)
    expect(listed.isError).toBe(false)
    expect(JSON.parse(listed.text)).toMatchObject({ stdout: "done\n", exit_code: 0 })

    const rows = await gateway.ledgerRows({ keyId: theirs.id })
    expect(rows.map((row) => [row.outcome, row.toolCalls])).toEqual([
      ["rejected", {}],
      ["rejected", {}],
      ["rejected", {}]
    ])
  })
})
