import { Context, Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SecretKey } from "../../src/auth/SecretKey.ts"
import { McpServerStore } from "../../src/mcp/McpServerStore.ts"
import * as Database from "../../src/store/Database.ts"
import { freePort } from "../support/freePort.ts"
import { EVERYTHING_BIN, type RunningServer, startEverythingHttp } from "../support/mcp/everything.ts"
import { cliIn, databaseUrl } from "./run.ts"

const SECRET = randomBytes(32).toString("base64")
let everything: RunningServer

beforeAll(async () => {
  everything = await startEverythingHttp()
})
afterAll(() => everything.close())

const configWith = (mcpServers: ReadonlyArray<unknown>) => ({
  providers: [{
    id: "local",
    type: "openai-compatible",
    baseURL: "http://127.0.0.1:9/v1",
    models: [{ id: "m1", name: "M1", categories: ["chat"] }]
  }],
  mcpServers
})

/** The CLI in a folder whose config names `everything` (HTTP) and `local` (stdio), and whose database stores `stored`. */
const cliWithServers = async () => {
  const parley = cliIn(
    configWith([
      { id: "everything", url: everything.url },
      { id: "local", command: process.execPath, args: [EVERYTHING_BIN, "stdio"] }
    ]),
    { PARLEY_SECRET_KEY: SECRET }
  )
  await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(McpServerStore.layer.pipe(
      Layer.provide(Database.layerFromUrl(databaseUrl(parley.dir))),
      Layer.provide(Layer.succeed(SecretKey, Redacted.make(Buffer.from(SECRET, "base64"))))
    ))
    yield* Context.get(context, McpServerStore).insert("stored", { url: everything.url, headers: {}, enabled: true })
  })))
  return parley
}

describe("parley keys --tools / --approve with MCP tools (docs/DESIGN.md §9)", { timeout: 120_000 }, () => {
  it("accepts a server's pattern and its tools, of the config file's servers and of the stored ones", async () => {
    const parley = await cliWithServers()
    const created = await parley(
      "keys",
      "create",
      "--name",
      "mcp",
      "--models",
      "*",
      "--tools",
      "everything__*,local__get-tiny-image,stored__echo,bash",
      "--approve",
      "everything__echo",
      "--json"
    )
    expect(created.code, created.stderr).toBe(0)
    const [key] = JSON.parse((await parley("keys", "list", "--json")).stdout)
    expect(key.allowedTools).toEqual(["everything__*", "local__get-tiny-image", "stored__echo", "bash"])
    expect(key.approvalRequired).toEqual(["everything__echo"])
    // A named tool is checked against the server's own list, and listing says so while it waits.
    expect(created.stderr).toContain("Listing the tools of MCP server local…")

    const updated = await parley("keys", "update", key.id, "--tools", "stored__get-tiny-image")
    expect(updated.code, updated.stderr).toBe(0)
  })

  it("refuses an unknown server, naming the known ones closest first, and creates nothing", async () => {
    const parley = await cliWithServers()
    const typo = await parley("keys", "create", "--name", "x", "--tools", "evrything__*")
    expect(typo.code).toBe(1)
    expect(typo.stderr).toContain(
      `--tools: unknown MCP server "evrything" in "evrything__*". Known MCP servers: everything, stored, local.`
    )
    const approve = await parley("keys", "create", "--name", "x", "--approve", "stord__echo")
    expect(approve.stderr).toContain(
      `--approve: unknown MCP server "stord" in "stord__echo". Known MCP servers: stored,`
    )
    expect((await parley("keys", "list", "--json")).stdout.trim()).toBe("[]")
  })

  it("refuses an unknown tool of a known server, naming that server's tools closest first", async () => {
    const parley = await cliWithServers()
    const typo = await parley("keys", "create", "--name", "x", "--tools", "everything__ecoh")
    expect(typo.code).toBe(1)
    expect(typo.stderr).toMatch(
      /--tools: MCP server everything has no tool "everything__ecoh"\. Its tools: everything__echo, .*everything__get-tiny-image.* \(or everything__\* for all of them\)\./
    )
    expect((await parley("keys", "list", "--json")).stdout.trim()).toBe("[]")
  })

  it("keeps a tool of a server that cannot be asked now, with a warning saying so", async () => {
    const closedPort = await freePort()
    const parley = cliIn(configWith([{ id: "down", url: `http://127.0.0.1:${closedPort}/mcp`, listTimeoutMs: 2000 }]))
    const created = await parley("keys", "create", "--name", "x", "--tools", "down__search", "--json")
    expect(created.code, created.stderr).toBe(0)
    expect(created.stderr).toContain(
      "Warning: could not list the tools of MCP server down (connection refused by 127.0.0.1:"
    )
    expect(created.stderr).toContain("its tool names are kept unchecked")
  })

  it("says how to add a server when none is configured, and still names built-in tools on a typo", async () => {
    const parley = cliIn(configWith([]))
    const none = await parley("keys", "create", "--name", "x", "--tools", "docs__*")
    expect(none.stderr).toContain(
      `--tools: unknown MCP server "docs" in "docs__*". No MCP server is configured: add one to the config file's mcpServers or POST /admin/v1/mcp-servers.`
    )
    const builtin = await parley("keys", "create", "--name", "x", "--tools", "bsh")
    expect(builtin.stderr).toContain(`--tools: unknown tool "bsh". Did you mean "bash"? Known tools: `)
  })
})
