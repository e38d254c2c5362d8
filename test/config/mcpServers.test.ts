import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { allowsTool } from "../../src/domain/ApiKey.ts"
import { makeKey } from "../support/keys.ts"
import { loadAppConfig, writeConfigFile } from "./fixtures.ts"

const load = (mcpServers: unknown) => loadAppConfig({ PARLEY_CONFIG: writeConfigFile({ providers: [], mcpServers }) })

describe("config file mcpServers (docs/DESIGN.md §9)", () => {
  it.effect("reads HTTP and stdio servers, credentials redacted, with the default timeouts", () =>
    Effect.gen(function*() {
      const config = yield* load([
        { id: "docs", url: "https://docs.example/mcp", headers: { Authorization: "Bearer t0ken" } },
        { id: "local-fs", command: "node", args: ["server.js"], env: { TOKEN: "x" }, callTimeoutMs: 5_000 }
      ])
      const [docs, local] = config.mcpServers
      assert.strictEqual(docs?.transport, "http")
      if (docs?.transport !== "http") return
      assert.isTrue(Redacted.isRedacted(docs.headers["Authorization"]))
      assert.strictEqual(Redacted.value(docs.headers["Authorization"]!), "Bearer t0ken")
      assert.strictEqual(String(docs.headers["Authorization"]), "<redacted>")
      assert.strictEqual(docs.callTimeoutMs, 60_000)
      assert.deepInclude(local, { transport: "stdio", command: "node", args: ["server.js"], callTimeoutMs: 5_000 })
    }))

  it.effect("refuses a malformed id, a duplicate id and an entry that is neither kind", () =>
    Effect.gen(function*() {
      for (
        const servers of [
          [{ id: "Docs_1", url: "https://docs.example/mcp" }],
          [{ id: "docs", url: "https://a.example/mcp" }, { id: "docs", url: "https://b.example/mcp" }],
          [{ id: "docs" }]
        ]
      ) {
        const error = yield* Effect.flip(load(servers))
        assert.include(error.message, "mcpServers")
      }
    }))

  it("lets `server__*` allow all of a server's tools and nothing else", () => {
    const key = makeKey({ allowedTools: ["docs__*"] })
    assert.isTrue(allowsTool(key, "docs__search"))
    assert.isFalse(allowsTool(key, "docsx__search"))
    assert.isFalse(allowsTool(key, "bash"))
  })
})
