import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_MCP_CALL_TIMEOUT_MS, DEFAULT_MCP_LIST_TIMEOUT_MS } from "../../src/config/McpServerConfig.ts"
import type { McpServerConfig } from "../../src/config/McpServerConfig.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { EVERYTHING_BIN, type RunningServer, startEverythingHttp } from "../support/mcp/everything.ts"

const timeouts = { callTimeoutMs: DEFAULT_MCP_CALL_TIMEOUT_MS, listTimeoutMs: DEFAULT_MCP_LIST_TIMEOUT_MS }

let everything: RunningServer
let gateway: TestGateway

beforeAll(async () => {
  everything = await startEverythingHttp()
  const servers: Array<McpServerConfig> = [
    { id: "everything", transport: "http", url: everything.url, headers: {}, ...timeouts },
    {
      id: "local",
      transport: "stdio",
      command: process.execPath,
      args: [EVERYTHING_BIN, "stdio"],
      env: {},
      ...timeouts
    }
  ]
  gateway = await startGateway({ config: { mcpServers: servers } })
}, 30_000)
afterAll(async () => {
  await gateway?.close()
  await everything?.close()
})

const toolNames = async (secret: string) => {
  const response = await fetch(`${gateway.url}/api/v1/tools`, { headers: bearer(secret) })
  expect(response.status).toBe(200)
  const body = await response.json()
  return (body.data.tools as Array<{ name: string }>).map((tool) => tool.name)
}

describe("MCP tool sources (docs/DESIGN.md §9)", () => {
  it("lists a server's tools for a key that may use them, and not for another", async () => {
    const all = await gateway.createKey({ tools: ["everything__*"] })
    const one = await gateway.createKey({ tools: ["local__echo"] })
    const none = await gateway.createKey({ tools: ["bash"] })

    const allNames = await toolNames(all.secret)
    expect(allNames).toContain("everything__echo")
    expect(allNames).toContain("everything__get-tiny-image")
    expect(allNames.every((name) => name.startsWith("everything__"))).toBe(true)
    expect(await toolNames(one.secret)).toEqual(["local__echo"])
    expect(await toolNames(none.secret)).toEqual([])

    const response = await fetch(`${gateway.url}/api/v1/tools`, { headers: bearer(one.secret) })
    const [echo] = (await response.json()).data.tools
    expect(echo).toMatchObject({ category: "mcp", requiresSandbox: false, requiredContext: [], promptTypes: [] })
  })

  it("runs a server's tools in the /chat loop: text and image results, over HTTP and stdio", async () => {
    const { secret } = await gateway.createKey({ tools: ["everything__*", "local__echo"] })
    gateway.upstream.enqueue(
      {
        type: "tool-calls",
        calls: [
          { id: "call_echo", name: "everything__echo", arguments: { message: "ping" } },
          { id: "call_image", name: "everything__get-tiny-image", arguments: {} },
          { id: "call_stdio", name: "local__echo", arguments: { message: "over stdio" } }
        ]
      },
      { type: "text", text: "done" }
    )
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["everything__echo", "everything__get-tiny-image", "local__echo"] }),
      bearer(secret)
    )
    const body = await response.json()
    expect(response.status).toBe(200)
    const parts = body.data.messages[1].parts.filter((part: { type: string }) => part.type === "dynamic-tool")
    const byId = Object.fromEntries(parts.map((part: { toolCallId: string }) => [part.toolCallId, part]))
    expect(byId.call_echo).toMatchObject({ state: "output-available", output: "Echo: ping" })
    expect(byId.call_stdio).toMatchObject({ state: "output-available", output: "Echo: over stdio" })
    const image = byId.call_image.output.content.find((part: { type: string }) => part.type === "media")
    expect(image).toMatchObject({ type: "media", mediaType: "image/png" })
    expect(image.data).toMatch(/^iVBORw0KGgo/)

    // The model was offered the server's JSON Schema, and told the image as an image, not as base64 text.
    const first = gateway.upstream.requests.at(-2)!.body
    const offered = first.tools.find((tool: any) => tool.function.name === "everything__echo")
    expect(offered.function.parameters.properties.message.type).toBe("string")
    const second = JSON.stringify(gateway.upstream.requests.at(-1)!.body.messages)
    expect(second).toContain("Echo: ping")
  })

  it("checks a call's input against the tool's JSON Schema before calling the server", async () => {
    const { secret } = await gateway.createKey({ tools: ["everything__echo"] })
    gateway.upstream.enqueue(
      { type: "tool-calls", calls: [{ id: "call_bad", name: "everything__echo", arguments: { message: 42 } }] },
      { type: "text", text: "done" }
    )
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["everything__echo"] }),
      bearer(secret)
    )
    const part = (await response.json()).data.messages[1].parts.find((p: { type: string }) => p.type === "dynamic-tool")
    expect(part.state).toBe("output-error")
    expect(part.errorText).toContain("Invalid input for tool everything__echo")
  })

  it("refuses a tool of a server that does not exist as an unknown tool, and a tool off the allow-list", async () => {
    const { secret } = await gateway.createKey({ tools: ["*"] })
    const unknown = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["nope__echo"] }),
      bearer(secret)
    )
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).message).toContain(`Unknown tool "nope__echo"`)

    const limited = await gateway.createKey({ tools: ["everything__echo"] })
    const refused = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["everything__get-env"] }),
      bearer(limited.secret)
    )
    expect(refused.status).toBe(403)
  })
})
