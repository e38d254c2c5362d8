import { existsSync, writeFileSync } from "node:fs"
import { networkInterfaces } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"
import { bashThroughChat, createSandbox, scriptOneToolCall, startSandboxGateway, whileServing } from "./chat.ts"
import { eventually, marked, processesWith } from "./support.ts"

/**
 * The containment matrix: each escape a sandboxed command might try, through
 * POST /chat with the real gateway, real bubblewrap and the scripted model
 * calling `bash`. Every test also checks the gateway kept answering.
 */

const ENV_SECRET = `env-secret-${Math.random().toString(36).slice(2)}`
const CONFIG_SECRET = `sk-config-secret-${Math.random().toString(36).slice(2)}`

let gateway: TestGateway
let secret: string
let data: string
let database: string
let config: string

beforeAll(async () => {
  const started = await startSandboxGateway()
  ;({ data, database, gateway } = started)
  config = join(dirname(data), "parley.config.json")
  writeFileSync(config, JSON.stringify({ providers: [{ id: "x", type: "openai", apiKey: CONFIG_SECRET, models: [] }] }))
  process.env.PARLEY_TEST_SECRET = ENV_SECRET
  ;({ secret } = await gateway.createKey())
  scriptOneToolCall(gateway)
})
afterAll(async () => {
  delete process.env.PARLEY_TEST_SECRET
  await gateway.close()
})

const sandbox = async (network = false) => (await createSandbox(gateway, secret, { network })).id

/** A bash command through /chat while the gateway is polled; then the sandbox must still work. */
const contained = async (id: string, input: { command: string; timeout_ms?: number }) => {
  const output = await whileServing(gateway, () => bashThroughChat(gateway, secret, id, input))
  expect((await bashThroughChat(gateway, secret, id, { command: "echo alive" })).stdout).toBe("alive\n")
  return output
}

describe.concurrent("a sandbox without network contains", () => {
  it("reading the gateway's database, config or environment", async () => {
    // The count comes first and the limit is generous: under a loaded CI machine `find /` can take long.
    const { stderr, stdout, timed_out } = await contained(await sandbox(), {
      timeout_ms: 240_000,
      command: [
        "echo processes: $(ls -d /proc/[0-9]* | wc -l)",
        `cat ${database} ${config}`,
        `ls ${data}`,
        "env",
        "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done",
        "find / -path /proc -prune -o \\( -name 'parley.db*' -o -name 'parley.config.json' \\) -print"
      ].join("; ")
    })
    expect(timed_out).toBe(false)
    const everything = stdout + stderr
    for (const hidden of [ENV_SECRET, CONFIG_SECRET, UPSTREAM_API_KEY, secret, "SQLite format"]) {
      expect(everything).not.toContain(hidden)
    }
    expect(stderr).toContain(`cat: ${database}: No such file or directory`)
    expect(stderr).toContain(`cat: ${config}: No such file or directory`)
    expect(stderr).toContain(`ls: cannot access '${data}': No such file or directory`)
    expect(stdout).not.toMatch(/parley\.(db|config)/)
    expect(Number(/processes: (\d+)/.exec(stdout)?.[1]), stdout.slice(0, 500)).toBeLessThan(8)
  })

  it("writing outside its workspace", async () => {
    const hostTmp = `/tmp/parley-escape-${Math.random().toString(36).slice(2)}`
    const targets = ["/etc/parley-escape", "/usr/parley-escape", "/parley-escape", join(data, "escape")]
    const { stdout } = await contained(await sandbox(), {
      command: `for p in ${
        targets.join(" ")
      }; do (echo x > $p) 2>/dev/null && echo "wrote $p"; done; echo x > ${hostTmp} && echo jail-tmp`
    })
    // The jail's /tmp is its own, empty and gone with the command.
    expect(stdout).toBe("jail-tmp\n")
    for (const target of [...targets, hostTmp]) expect(existsSync(target)).toBe(false)
  })

  it("reaching the network, the gateway's own port included", async () => {
    const port = new URL(gateway.url).port
    const hostAddress = Object.values(networkInterfaces()).flat().find((entry) =>
      entry?.family === "IPv4" && !entry.internal
    )?.address
    const { stderr, stdout } = await contained(await sandbox(), {
      command: [
        `(exec 3<>/dev/tcp/127.0.0.1/${port}) && echo reached-gateway`,
        ...(hostAddress === undefined ? [] : [`(exec 3<>/dev/tcp/${hostAddress}/${port}) && echo reached-host`]),
        "(exec 3<>/dev/tcp/1.1.1.1/80) && echo reached-internet",
        "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"
      ].join("; ")
    })
    expect(stdout).toBe("lo\n")
    expect(stderr).toContain("Connection refused")
    expect(stderr).toContain("Network is unreachable")

    // The same command from a sandbox created with network does reach the gateway.
    const open = await bashThroughChat(gateway, secret, await sandbox(true), {
      command: `exec 3<>/dev/tcp/127.0.0.1/${port}; printf 'GET /health HTTP/1.0\\r\\n\\r\\n' >&3; cat <&3`
    })
    expect(open.stdout).toContain(`{"status":"ok"}`)
  })

  it("a fork bomb", async () => {
    const id = await sandbox()
    const marker = `fork-bomb-${id}`
    let most = 0
    const sample = setInterval(() => (most = Math.max(most, processesWith(marker).length)), 50)
    const output = await contained(id, {
      command: marked(marker, "exec 2>/dev/null; f(){ f | f & }; f; sleep 60"),
      timeout_ms: 3_000
    })
    clearInterval(sample)
    expect(output).toMatchObject({ exit_code: null, timed_out: true })
    expect(most).toBeGreaterThan(10)
    expect(most).toBeLessThanOrEqual(64 + 2) // the process limit, plus prlimit's bwrap outside the jail
    expect(processesWith(marker)).toEqual([])
  })

  it("a memory hog", async () => {
    const { stderr, stdout } = await contained(await sandbox(), {
      command: `head -c 2G /dev/zero | tail; echo "tail exit: \${PIPESTATUS[1]}"`
    })
    expect(stderr).toContain("memory exhausted")
    expect(stdout).toBe("tail exit: 1\n")
  })

  it("endless output", async () => {
    const started = Date.now()
    const output = await contained(await sandbox(), { command: "yes parley" })
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(output).toMatchObject({ exit_code: null, truncated: true, timed_out: false })
    expect(output.stdout.length).toBeLessThan(9_000)
    expect(output.stdout.startsWith("parley\nparley\n")).toBe(true)
    expect(output.stdout).toMatch(/bytes omitted/)
    expect(output.stderr).toContain("stopped after 1048576 bytes of output")
  })

  it("sleeping past the timeout", async () => {
    const id = await sandbox()
    const marker = `sleeper-${id}`
    const started = Date.now()
    const output = await contained(id, { command: marked(marker, "sleep 30 & wait"), timeout_ms: 1_000 })
    expect(output).toMatchObject({ exit_code: null, timed_out: true })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(await eventually(() => processesWith(marker).length === 0, 1_000)).toBe(true)
  })

  it("a symlink out of the workspace", async () => {
    const id = await sandbox()
    const { stderr, stdout } = await contained(id, {
      command:
        `ln -s ${database} db; ln -s / host; ln -s /etc/shadow shadow; cat db; ls host${data}; cat shadow; ls -l db | cut -c1`
    })
    expect(stdout).toBe("l\n")
    expect(stderr).toContain(`cat: db: No such file or directory`)
    expect(stderr).toContain(`No such file or directory`)
    expect(stderr).toContain("cat: shadow: Permission denied")
    // Deleting the sandbox removes the links, never what they point at.
    const removed = await fetch(`${gateway.url}/api/v1/sandboxes/${id}`, { method: "DELETE", headers: bearer(secret) })
    expect(removed.status).toBe(200)
    expect(existsSync(database)).toBe(true)
    expect((await fetch(`${gateway.url}/api/v1/models`, { headers: bearer(secret) })).status).toBe(200)
  })
})
