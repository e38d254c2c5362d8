import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { BrowserPool } from "../../../src/tools/browser/BrowserPool.ts"
import { makeBrowserTool } from "../../../src/tools/browser/browserTool.ts"
import { pngSize } from "../../../src/tools/browser/pngSize.ts"
import { startGateway } from "../../support/gateway.ts"
import { bearer, chatBody, postJson } from "../../support/http.ts"
import { poolLayer, TestSites } from "./support.ts"

/** The real gateway with the browser tool over the file's pool, and a key for it. */
const gatewayWithBrowser = Effect.gen(function*() {
  const tool = makeBrowserTool(yield* BrowserPool)
  const gateway = yield* Effect.acquireRelease(
    Effect.promise(() => startGateway({ tools: [tool] })),
    (gateway) => Effect.promise(gateway.close)
  )
  const { secret } = yield* Effect.promise(() => gateway.createKey({ tools: ["browser"] }))
  return { gateway, secret }
})

const toolParts = (body: any): Array<any> =>
  body.data.messages.at(-1).parts.filter((part: any) => part.type === "dynamic-tool")

layer(Layer.merge(poolLayer(), TestSites.layer), { timeout: 30_000, excludeTestServices: true })(
  "browser through /chat",
  (it) => {
    it.effect("runs a scripted navigate and extract in one request and feeds the page to the model", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const { gateway, secret } = yield* gatewayWithBrowser
        gateway.upstream.enqueue(
          {
            type: "tool-calls",
            calls: [{ id: "call_nav", name: "browser", arguments: { action: "navigate", url: `${site}/` } }]
          },
          {
            type: "tool-calls",
            calls: [{ id: "call_read", name: "browser", arguments: { action: "extract", selector: "p" } }]
          },
          { type: "text", text: "The page lists roles in Shanghai." }
        )
        const response = yield* Effect.promise(() =>
          postJson(
            `${gateway.url}/api/v1/chat`,
            chatBody({ promptType: "generalComputerSystemPrompt" }),
            bearer(secret)
          )
        )
        const body = yield* Effect.promise(() => response.json())
        assert.strictEqual(response.status, 200)
        const [navigate, extract] = toolParts(body)
        assert.deepStrictEqual(navigate.output, { action: "navigate", url: `${site}/`, title: "Home", status: 200 })
        // The second step ran on the page the first one opened.
        assert.strictEqual(extract.output.text, "Open roles in Shanghai.")
        assert.deepStrictEqual(body.data.tools, { used: ["browser"], skipped: [] })

        const [first, , third] = gateway.upstream.requests.map((request) => request.body)
        const offered = first.tools.find((tool: any) => tool.function.name === "browser").function.parameters
        assert.strictEqual(offered.type, "object")
        assert.include(offered.properties.action.enum, "wait_for")
        const toolMessage = third.messages.find((message: any) =>
          message.role === "tool" && message.tool_call_id === "call_read"
        )
        assert.include(toolMessage.content, "Open roles in Shanghai.")
      }))

    it.effect("returns a screenshot to the client as data and to the model as an image", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const { gateway, secret } = yield* gatewayWithBrowser
        gateway.upstream.enqueue(
          {
            type: "tool-calls",
            calls: [{ id: "call_nav", name: "browser", arguments: { action: "navigate", url: `${site}/` } }]
          },
          { type: "tool-calls", calls: [{ id: "call_shot", name: "browser", arguments: { action: "screenshot" } }] },
          { type: "text", text: "A welcome page." }
        )
        const requestsBefore = gateway.upstream.requests.length
        const response = yield* Effect.promise(() =>
          postJson(`${gateway.url}/api/v1/chat`, chatBody({ allowedTools: ["browser"] }), bearer(secret))
        )
        const [, shot] = toolParts(yield* Effect.promise(() => response.json()))
        assert.strictEqual(shot.output.screenshot.mediaType, "image/png")
        assert.deepStrictEqual(pngSize(Buffer.from(shot.output.screenshot.data, "base64")), {
          width: 1280,
          height: 800
        })
        // This provider takes tool results as text, so the content parts arrive serialized: a text part and a file part.
        const third = gateway.upstream.requests[requestsBefore + 2]!.body
        const content: Array<any> = JSON.parse(
          third.messages.find((message: any) => message.tool_call_id === "call_shot").content
        )
        assert.deepStrictEqual(content.map((part) => part.type), ["text", "file"])
        assert.include(content[0].text, "\"title\":\"Home\"")
        assert.strictEqual(content[1].data.data, shot.output.screenshot.data)
      }))

    it.effect("tells the model when the policy refused a redirect into a private address", () =>
      Effect.gen(function*() {
        const sites = yield* TestSites
        const { gateway, secret } = yield* gatewayWithBrowser
        gateway.upstream.enqueue(
          {
            type: "tool-calls",
            calls: [{ name: "browser", arguments: { action: "navigate", url: `${sites.site}/redirect-private` } }]
          },
          { type: "text", text: "That page is not reachable." }
        )
        const response = yield* Effect.promise(() =>
          postJson(`${gateway.url}/api/v1/chat`, chatBody({ allowedTools: ["browser"] }), bearer(secret))
        )
        const [refused] = toolParts(yield* Effect.promise(() => response.json()))
        assert.strictEqual(refused.state, "output-error")
        assert.include(refused.errorText, "refused by the browser policy")
        assert.include(refused.errorText, "127.0.0.2 is a loopback address")
        assert.deepStrictEqual(sites.privateHits, [])
      }))

    it.effect("answers the model's attempt to open a file: URL with the reason, without touching the browser", () =>
      Effect.gen(function*() {
        const pool = yield* BrowserPool
        const { gateway, secret } = yield* gatewayWithBrowser
        const sessionsBefore = yield* pool.openSessions
        gateway.upstream.enqueue(
          {
            type: "tool-calls",
            calls: [{ name: "browser", arguments: { action: "navigate", url: "file:///etc/passwd" } }]
          },
          { type: "text", text: "I cannot open local files." }
        )
        const response = yield* Effect.promise(() =>
          postJson(`${gateway.url}/api/v1/chat`, chatBody({ allowedTools: ["browser"] }), bearer(secret))
        )
        const [refused] = toolParts(yield* Effect.promise(() => response.json()))
        assert.strictEqual(refused.state, "output-error")
        assert.include(refused.errorText, "only http and https URLs are allowed, not file:")
        assert.strictEqual(yield* pool.openSessions, sessionsBefore)
      }))

    it.effect("closes the request's browser context when the client disconnects mid-navigation", () =>
      Effect.gen(function*() {
        const sites = yield* TestSites
        const pool = yield* BrowserPool
        const { gateway, secret } = yield* gatewayWithBrowser
        const dropped = sites.nextSlowDrop()
        // Sessions of the earlier requests in this file are still within their idle time.
        const sessionsBefore = yield* pool.openSessions
        gateway.upstream.enqueue({
          type: "tool-calls",
          calls: [{ name: "browser", arguments: { action: "navigate", url: `${sites.site}/slow` } }]
        })
        const response = yield* Effect.promise(() =>
          postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream: true, allowedTools: ["browser"] }), bearer(secret))
        )
        const reader = response.body!.getReader()
        yield* Effect.promise(async () => {
          while (!sites.siteHits.some((hit) => hit.path === "/slow")) {
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
        })
        assert.strictEqual(yield* pool.openSessions, sessionsBefore + 1)
        const cancelledAt = Date.now()
        yield* Effect.promise(() => reader.cancel())
        yield* Effect.promise(() => dropped)
        assert.isBelow(Date.now() - cancelledAt, 1_000)
        yield* Effect.promise(async () => {
          while (Effect.runSync(pool.openSessions) > sessionsBefore) {
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
        })
      }))

    it.effect("closes a request's pages when its run ends, answered in one piece or streamed", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const pool = yield* BrowserPool
        const { gateway, secret } = yield* gatewayWithBrowser
        const sessionsBefore = yield* pool.openSessions
        for (const stream of [false, true]) {
          gateway.upstream.enqueue(
            { type: "tool-calls", calls: [{ name: "browser", arguments: { action: "navigate", url: `${site}/` } }] },
            { type: "text", text: "Seen." }
          )
          const response = yield* Effect.promise(() =>
            postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream, allowedTools: ["browser"] }), bearer(secret))
          )
          const body = yield* Effect.promise(() => response.text())
          assert.include(body, `"title":"Home"`)
          // Not left to the 2-minute idle close: the context is gone by the time the answer ends.
          assert.strictEqual(yield* pool.openSessions, sessionsBefore)
        }
      }))

    it.effect("closes a request's pages when the client disconnects between two steps", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const pool = yield* BrowserPool
        const { gateway, secret } = yield* gatewayWithBrowser
        const sessionsBefore = yield* pool.openSessions
        const requestsBefore = gateway.upstream.requests.length
        gateway.upstream.enqueue(
          { type: "tool-calls", calls: [{ name: "browser", arguments: { action: "navigate", url: `${site}/` } }] },
          { type: "hang" }
        )
        const response = yield* Effect.promise(() =>
          postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream: true, allowedTools: ["browser"] }), bearer(secret))
        )
        const reader = response.body!.getReader()
        // The page is open and no action runs: the run waits for the model's second answer.
        yield* Effect.promise(async () => {
          while (gateway.upstream.requests.length < requestsBefore + 2) {
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
        })
        assert.strictEqual(yield* pool.openSessions, sessionsBefore + 1)
        yield* Effect.promise(() => reader.cancel())
        yield* Effect.promise(async () => {
          while (Effect.runSync(pool.openSessions) > sessionsBefore) {
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
        })
      }))

    it.effect("keeps a sandbox's pages from one request to the next", () =>
      Effect.gen(function*() {
        const { site } = yield* TestSites
        const pool = yield* BrowserPool
        const { gateway, secret } = yield* gatewayWithBrowser
        const sessionsBefore = yield* pool.openSessions
        const ask = (args: Record<string, unknown>) =>
          Effect.gen(function*() {
            gateway.upstream.enqueue(
              { type: "tool-calls", calls: [{ name: "browser", arguments: args }] },
              { type: "text", text: "Done." }
            )
            const response = yield* Effect.promise(() =>
              postJson(
                `${gateway.url}/api/v1/chat`,
                chatBody({ allowedTools: ["browser"], sandboxId: "chat-pages" }),
                bearer(secret)
              )
            )
            const [part] = toolParts(yield* Effect.promise(() => response.json()))
            return part.output
          })
        yield* ask({ action: "navigate", url: `${site}/second` })
        assert.strictEqual((yield* ask({ action: "extract", selector: "h1" })).text, "Second page")
        assert.strictEqual(yield* pool.openSessions, sessionsBefore + 1)
      }))

    it.effect("is listed in /tools with its category, its optional sandbox and promptTypes", () =>
      Effect.gen(function*() {
        const pool = yield* BrowserPool
        const { gateway, secret } = yield* gatewayWithBrowser
        const response = yield* Effect.promise(() => fetch(`${gateway.url}/api/v1/tools`, { headers: bearer(secret) }))
        const body: any = yield* Effect.promise(() => response.json())
        const browser = body.data.tools.find((tool: any) => tool.name === "browser")
        assert.deepInclude(browser, {
          category: "browser automation",
          requiresSandbox: false,
          optionalSandbox: makeBrowserTool(pool).optionalSandbox,
          requiredContext: [],
          promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt", "generalComputerSystemPrompt"]
        })
      }))
  }
)
