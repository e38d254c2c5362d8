import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bashThroughChat, createSandbox, scriptOneToolCall, startSandboxGateway } from "../sandbox/chat.ts"
import type { TestGateway } from "../support/gateway.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"

/**
 * Security matrix, sandboxes: two sandboxes of one key through POST /chat.
 * Neither sees the other's files or processes; neither sees the host's
 * database, sandbox folder, environment or the gateway's port.
 */
let gateway: TestGateway
let database: string
let root: string
let secret: string
let first: string
let second: string

beforeAll(async () => {
  ;({ gateway, database, root } = await startSandboxGateway())
  ;({ secret } = await gateway.createKey())
  scriptOneToolCall(gateway)
  first = (await createSandbox(gateway, secret)).id
  second = (await createSandbox(gateway, secret)).id
}, 60_000)
afterAll(() => gateway?.close())

const bash = (sandboxId: string, command: string) => bashThroughChat(gateway, secret, sandboxId, { command })

describe("security: sandboxes isolated from each other and the host", () => {
  it("a sandbox cannot read another's files", async () => {
    await bash(first, "echo first-sandbox-private > /workspace/private.txt")
    const probe = await bash(
      second,
      `cat /workspace/private.txt ${root}/${first}/workspace/private.txt ../${first}/workspace/private.txt 2>&1; ` +
        "grep -rs first-sandbox-private /tmp /run /var /home /mnt /srv /opt /root 2>/dev/null | head -1"
    )
    expect(probe.stdout).not.toContain("first-sandbox-private")
  }, 60_000)

  it("a sandbox cannot see another's processes", async () => {
    const marker = "sleep 7.77"
    const running = bash(first, `${marker}; true`)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const probe = await bash(second, "ps -eo args 2>/dev/null || cat /proc/[0-9]*/cmdline")
    await running
    expect(probe.stdout).not.toContain("7.77")
  }, 60_000)

  it("a sandbox cannot reach the host's database, folders, environment or the gateway", async () => {
    const { port } = new URL(gateway.url)
    const probe = await bash(
      first,
      `ls ${database} ${root} 2>&1; env; ` +
        `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo gateway-reached) 2>&1; cat /proc/1/environ 2>&1 | tr '\\0' '\\n'`
    )
    expect(probe.stdout).not.toContain("gateway-reached")
    expect(probe.stdout).not.toContain(UPSTREAM_API_KEY)
    expect(probe.stdout).not.toMatch(new RegExp(`^${database}$`, "m"))
    expect(probe.stdout).not.toContain(second)
  }, 60_000)
})
