import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { McpClient } from "effect/ai"
import { BrowserPool } from "../../../src/tools/browser/BrowserPool.ts"
import { makeBrowserTool } from "../../../src/tools/browser/browserTool.ts"
import { startGateway } from "../../support/gateway.ts"
import { textOf, withParleyClient } from "../../support/mcp/parleyClient.ts"
import { poolLayer, TestSites } from "./support.ts"

/** The real gateway with the browser tool over the file's pool, and an MCP client of a key for it. */
const browserOverMcp = Effect.gen(function*() {
  const tool = makeBrowserTool(yield* BrowserPool)
  const gateway = yield* Effect.acquireRelease(
    Effect.promise(() => startGateway({ tools: [tool] })),
    (gateway) => Effect.promise(gateway.close)
  )
  const { secret } = yield* Effect.promise(() => gateway.createKey({ tools: ["browser"] }))
  return <A>(use: (client: McpClient.McpClient) => Effect.Effect<A, unknown>) =>
    Effect.promise(() => withParleyClient(gateway.url, secret, use))
})

const call = (client: McpClient.McpClient, args: Record<string, unknown>) =>
  Effect.gen(function*() {
    const [browser] = yield* client.listTools()
    const result = yield* client.callTool({ tool: browser!, arguments: args })
    assert.isNotTrue(result.isError, JSON.stringify(result.content))
    // The tool tells its answer as JSON text (a screenshot would come beside it as an image).
    return JSON.parse(textOf(result)) as Record<string, unknown>
  })

layer(Layer.merge(poolLayer(), TestSites.layer), { timeout: 30_000, excludeTestServices: true })(
  "browser through /mcp (docs/DESIGN.md §9)",
  (it) => {
    it.effect("without _sandboxId each call has a context of its own, closed when the call answers", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const pool = yield* BrowserPool
        const withClient = yield* browserOverMcp
        const sessionsBefore = yield* pool.openSessions
        yield* withClient((client) =>
          Effect.gen(function*() {
            for (const path of ["/", "/second", "/form", "/"]) {
              const navigated = yield* call(client, { action: "navigate", url: `${site}${path}` })
              assert.strictEqual(navigated.status, 200)
              assert.strictEqual(yield* pool.openSessions, sessionsBefore)
            }
            // The call stands alone: the pages of the one before are gone.
            assert.strictEqual((yield* call(client, { action: "extract" })).url, "about:blank")
          })
        )
        assert.strictEqual(yield* pool.openSessions, sessionsBefore)
      }))

    it.effect("offers _sandboxId as optional, saying it keeps the pages between calls", () =>
      Effect.gen(function*() {
        const withClient = yield* browserOverMcp
        const [browser] = yield* withClient((client) => client.listTools())
        const schema = browser!.inputSchema
        const sandbox = schema.properties?._sandboxId as { readonly description?: string } | undefined
        assert.include(sandbox?.description, "Pages and cookies persist across requests naming the same sandbox")
        assert.notInclude(schema.required ?? [], "_sandboxId")
      }))

    it.effect("with _sandboxId the key's pages of that sandbox persist from one call to the next", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const pool = yield* BrowserPool
        const withClient = yield* browserOverMcp
        const sessionsBefore = yield* pool.openSessions
        yield* withClient((client) =>
          Effect.gen(function*() {
            yield* call(client, { action: "navigate", url: `${site}/second`, _sandboxId: "pages" })
            const read = yield* call(client, { action: "extract", selector: "h1", _sandboxId: "pages" })
            assert.strictEqual(read.text, "Second page")
          })
        )
        assert.strictEqual(yield* pool.openSessions, sessionsBefore + 1)
      }))
  }
)
