import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bashThroughChat, createSandbox, scriptOneToolCall, startSandboxGateway } from "../sandbox/chat.ts"
import { processesWith } from "../sandbox/support.ts"
import type { TestGateway } from "../support/gateway.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"

/**
 * Security matrix, sandboxes: two sandboxes of one key through POST /chat.
 * Neither sees the other's files or processes; neither sees the host's
 * database, sandbox folder, environment or the gateway's port. Each test
 * also shows that what it looks for exists where it should, and that the
 * look finds a sandbox's own file or process: a probe that found nothing
 * because it could find nothing fails.
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const bash = (sandboxId: string, command: string) => bashThroughChat(gateway, secret, sandboxId, { command })

describe("security: sandboxes isolated from each other and the host", () => {
  it("a sandbox cannot read another's files", async () => {
    await bash(first, "echo first-sandbox-private > /workspace/private.txt")
    // The write is where it should be: the first sandbox's workspace, on the host and from inside it.
    expect(readFileSync(join(root, first, "workspace", "private.txt"), "utf8")).toBe("first-sandbox-private\n")
    expect((await bash(first, "cat /workspace/private.txt")).stdout).toBe("first-sandbox-private\n")

    // The second writes a file of its own first: the same reads and search find it, and only it.
    const probe = await bash(
      second,
      "echo second-sandbox-own | tee /workspace/own.txt > /tmp/own.txt; " +
        `cat /workspace/own.txt /workspace/private.txt ${root}/${first}/workspace/private.txt ` +
        `../${first}/workspace/private.txt 2>&1; ` +
        "grep -rs -e first-sandbox-private -e second-sandbox-own /workspace /tmp /run /var /home /mnt /srv /opt /root"
    )
    expect(probe.stdout).toContain("/workspace/own.txt:second-sandbox-own")
    expect(probe.stdout).toContain("/tmp/own.txt:second-sandbox-own")
    expect(probe.stdout).toContain("/workspace/private.txt: No such file or directory")
    expect(probe.stdout).not.toContain("first-sandbox-private")
  }, 60_000)

  it("a sandbox cannot see another's processes", async () => {
    const running = bash(first, "sleep 7.77; true")
    // The process runs, on the host, while the second sandbox looks.
    const deadline = Date.now() + 10_000
    while (processesWith("7.77").length === 0 && Date.now() < deadline) await sleep(50)
    expect(processesWith("7.77").length).toBeGreaterThan(0)
    // The second starts one of its own first: the same listing shows it, and only it.
    const probe = await bash(
      second,
      "sleep 8.88 > /dev/null 2>&1 & (ps -eo args 2>/dev/null || cat /proc/[0-9]*/cmdline); kill $!"
    )
    expect(processesWith("7.77").length).toBeGreaterThan(0)
    await running
    expect(probe.stdout).toContain("8.88")
    expect(probe.stdout).not.toContain("7.77")
  }, 60_000)

  it("a sandbox cannot reach the host's database, folders, environment or the gateway", async () => {
    const { port } = new URL(gateway.url)
    const probe = await bash(
      first,
      `ls ${database} ${root} 2>&1; env; ` +
        `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo gateway-reached) 2>&1; cat /proc/1/environ 2>&1 | tr '\\0' '\\n'`
    )
    // What it looks for is there on the host, and each look ran inside and came back empty-handed.
    expect(existsSync(database) && existsSync(root)).toBe(true)
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200)
    expect(probe.stdout).toContain(`ls: cannot access '${database}': No such file or directory`)
    expect(probe.stdout).toContain(`ls: cannot access '${root}': No such file or directory`)
    expect(probe.stdout.match(/^PATH=/gm)).toHaveLength(2)
    expect(probe.stdout).toContain(`/dev/tcp/127.0.0.1/${port}: Connection refused`)
    expect(probe.stdout).not.toContain("gateway-reached")
    expect(probe.stdout).not.toContain(UPSTREAM_API_KEY)
    expect(probe.stdout).not.toMatch(new RegExp(`^${database}$`, "m"))
    expect(probe.stdout).not.toContain(second)
  }, 60_000)
})
