import { Effect, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { McpServerConfig } from "../../src/config/McpServerConfig.ts"
import { McpRegistry } from "../../src/mcp/McpRegistry.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { type Posted, type RunningServer, startEverythingHttp, startRecordingProxy } from "../support/mcp/everything.ts"
import { startFakeMcpServer } from "../support/mcp/fakeServer.ts"

const SECRET_HEADER = "Bearer mcp-credential-7f3a9c"

const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }
}

let gateway: TestGateway
let everything: RunningServer
let proxy: RunningServer & { readonly posted: Array<Posted> }
let fake: Awaited<ReturnType<typeof startFakeMcpServer>>
let slow: Server
let leaky: Server
let secret: string

const http = (id: string, url: string, extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  id,
  transport: "http",
  url,
  headers: {},
  callTimeoutMs: 60_000,
  listTimeoutMs: 2_000,
  ...extra
} as McpServerConfig)

beforeAll(async () => {
  everything = await startEverythingHttp()
  proxy = await startRecordingProxy(everything.url)
  fake = await startFakeMcpServer({ type: "object", properties: { word: { type: "string" } } })
  // Accepts the connection, never answers.
  const hanging = await listen(() => {})
  slow = hanging.server
  // Echoes the credential it was sent in an error body, as a careless server might.
  const echoing = await listen((req, res) => {
    res.writeHead(500, { "content-type": "text/plain" })
    res.end(`rejected ${req.headers.authorization}`)
  })
  leaky = echoing.server
  gateway = await startGateway({
    config: {
      mcpServers: [
        http("everything", proxy.url),
        http("down", "http://127.0.0.1:9/mcp"),
        http("slow", hanging.url, { listTimeoutMs: 300 }),
        http("leaky", echoing.url, { headers: { authorization: Redacted.make(SECRET_HEADER) } }),
        http("fake", fake.url)
      ]
    }
  })
  ;({ secret } = await gateway.createKey({ tools: ["*"] }))
}, 30_000)
afterAll(async () => {
  await gateway?.close()
  await proxy?.close()
  await everything?.close()
  await fake?.close()
  slow?.closeAllConnections()
  slow?.close()
  leaky?.close()
})

const chat = (body: Record<string, unknown>) => postJson(`${gateway.url}/api/v1/chat`, chatBody(body), bearer(secret))

describe("MCP servers that fail (docs/DESIGN.md §9)", () => {
  it("skips the tools of a server that is down under contextStrategy=skip, and is a 503 under error", async () => {
    gateway.upstream.enqueue({ type: "text", text: "without it" })
    const skipped = await chat({ allowedTools: ["down__echo"], contextStrategy: "skip" })
    expect(skipped.status).toBe(200)
    expect(skipped.headers.get("x-tools-skipped")).toContain("down__echo")

    const refused = await chat({ allowedTools: ["down__echo"], contextStrategy: "error" })
    expect(refused.status).toBe(503)
    const body = await refused.json()
    expect(body.error).toBe("ServiceUnavailable")
    expect(body.details.server).toBe("down")
  })

  it("gives up on a server that does not answer within its list timeout", async () => {
    const started = Date.now()
    const refused = await chat({ allowedTools: ["slow__echo"], contextStrategy: "error" })
    expect(refused.status).toBe(503)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it("never tells a server's configured credentials", async () => {
    const refused = await chat({ allowedTools: ["leaky__echo"], contextStrategy: "error" })
    const text = await refused.text()
    expect(refused.status).toBe(503)
    expect(text).toContain("[redacted]")
    expect(text).not.toContain("mcp-credential-7f3a9c")
  })

  it("holds back a tool whose input schema changed until the operator refreshes the server", async () => {
    const toolNames = async () => {
      const response = await fetch(`${gateway.url}/api/v1/tools`, { headers: bearer(secret) })
      return ((await response.json()).data.tools as Array<{ name: string }>).map((tool) => tool.name)
    }
    expect(await toolNames()).toContain("fake__lookup")
    fake.schema = { type: "object", properties: { word: { type: "string" }, language: { type: "string" } } }
    expect(await toolNames()).not.toContain("fake__lookup")
    const refused = await chat({ allowedTools: ["fake__lookup"], contextStrategy: "error" })
    expect(refused.status).toBe(503)
    expect((await refused.json()).message).toContain("held back")

    await Effect.runPromise(Effect.ignore(gateway.service(McpRegistry).refresh("fake")))
    expect(await toolNames()).toContain("fake__lookup")
  })

  it("cancels a running call on the server when the client disconnects", async () => {
    gateway.upstream.enqueue({
      type: "tool-calls",
      calls: [{
        id: "call_long",
        name: "everything__trigger-long-running-operation",
        arguments: { duration: 30, steps: 30 }
      }]
    })
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["everything__trigger-long-running-operation"], stream: true }),
      bearer(secret)
    )
    const reader = response.body!.getReader()
    const drained = (async () => {
      while (!(await reader.read()).done);
    })().catch(() => undefined)
    const waitFor = async (found: () => Posted | undefined) => {
      const deadline = Date.now() + 5_000
      let message = found()
      while (message === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        message = found()
      }
      return message
    }
    const call = await waitFor(() => proxy.posted.find((message) => message.method === "tools/call"))
    expect(call).toBeDefined()
    // The client leaves while the tool runs.
    await reader.cancel()
    await drained
    const cancelled = await waitFor(() => proxy.posted.find((message) => message.method === "notifications/cancelled"))
    expect(cancelled?.params.requestId).toBe(call!.id)
  })
})
