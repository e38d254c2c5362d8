import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { scriptOneToolCall, startSandboxGateway } from "./chat.ts"

/** The real CLI (`node src/cli/main.ts sandbox …`) against the folder a running test gateway uses. */
const root = resolve(import.meta.dirname, "../..")
const node = join(root, "node_modules/.bin/node")

let gateway: TestGateway
let sandboxes: string
let database: string
let secret: string

beforeAll(async () => {
  const started = await startSandboxGateway()
  ;({ database, gateway } = started)
  sandboxes = started.root
  ;({ secret } = await gateway.createKey({ tools: ["bash"] }))
  scriptOneToolCall(gateway)
})
afterAll(() => gateway.close())

const parley = (...args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      node,
      ["src/cli/main.ts", "sandbox", ...args],
      {
        cwd: root,
        env: { ...process.env, PARLEY_SANDBOX_DIR: sandboxes, DATABASE_URL: `sqlite:${database}` },
        timeout: 60_000
      },
      (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr })
    )
  })

const chatIn = (sandboxId: string) =>
  postJson(
    `${gateway.url}/api/v1/chat`,
    chatBody({
      messages: [{ role: "user", content: JSON.stringify({ command: "echo from-cli-sandbox" }) }],
      allowedTools: ["bash"],
      sandboxId
    }),
    bearer(secret)
  )

describe("parley sandbox", () => {
  it("creates, lists and removes sandboxes a running server uses at once", async () => {
    const [created, json] = await Promise.all([parley("create", "--network"), parley("create", "--desktop", "--json")])
    expect(created.code).toBe(0)
    expect(created.stderr).toContain("checking that this host can jail commands")
    const id = /Created sandbox (sbx_[0-9a-f]{24})\./.exec(created.stdout)?.[1] ?? ""
    expect(created.stdout).toContain("owner:   account (every API key may use it)")
    expect(created.stdout).toContain(`"sandboxId": "${id}"`)

    const { id: desktopId } = JSON.parse(json.stdout)
    expect(json.stdout.trim().split("\n")).toHaveLength(1)

    const [table, listing] = await Promise.all([parley("list"), parley("list", "--json")])
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+account\\s+no\\s+yes`))
    expect(table.stdout).toMatch(new RegExp(`${desktopId}\\s+account\\s+yes\\s+no`))
    const listed = JSON.parse(listing.stdout)
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: desktopId, owner: null, desktop: true })])
    )

    // An operator's sandbox serves every key of the gateway, and is gone once removed.
    const used = await (await chatIn(id)).json()
    expect(used.data.messages.at(-1).parts.find((p: { type: string }) => p.type === "dynamic-tool").output.stdout).toBe(
      "from-cli-sandbox\n"
    )
    const owned = await (await fetch(`${gateway.url}/api/v1/sandboxes/${id}`, { headers: bearer(secret) })).json()
    expect(owned.data.sandbox.owner).toBe("account")
    expect((await fetch(`${gateway.url}/api/v1/sandboxes/${id}`, { method: "DELETE", headers: bearer(secret) })).status)
      .toBe(403)

    const removed = await parley("rm", id)
    expect(removed.stdout).toContain(`Removed sandbox ${id}`)
    expect(existsSync(join(sandboxes, id))).toBe(false)
    expect((await chatIn(id)).status).toBe(400)
  })

  it("says what to do about unknown ids and keys", async () => {
    const [missing, key] = await Promise.all([
      parley("rm", "sbx_0123456789abcdef01234567"),
      parley("create", "--key", "key_missing")
    ])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(
      "No sandbox with id sbx_0123456789abcdef01234567. Run `parley sandbox list` to see ids."
    )
    expect(key.code).toBe(1)
    expect(key.stderr).toContain("No key with id key_missing. Run `parley keys list` to see key ids.")
  })
})
