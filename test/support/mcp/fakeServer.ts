import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import type { RunningServer } from "./everything.ts"

/**
 * A small stateless MCP server whose one tool's input schema a test can
 * change; its lists say `ttlMs: 0`, so a client reads them afresh each time.
 * `headers` holds the headers of every request it was sent, `calls` the
 * arguments of every call of its tool.
 */
export const startFakeMcpServer = async (
  initial: Tool["inputSchema"]
): Promise<
  RunningServer & {
    schema: Tool["inputSchema"]
    readonly headers: Array<IncomingHttpHeaders>
    readonly calls: Array<unknown>
  }
> => {
  const state = { schema: initial, headers: [] as Array<IncomingHttpHeaders>, calls: [] as Array<unknown> }
  const http = createServer(async (req, res) => {
    state.headers.push(req.headers)
    const server = new Server({ name: "fake", version: "1.0.0" }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: "lookup", description: "Looks a word up", inputSchema: state.schema }],
      ttlMs: 0
    }))
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      state.calls.push(call.params.arguments)
      return { content: [{ type: "text", text: `found ${JSON.stringify(call.params.arguments)}` }] }
    })
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    res.on("close", () => void server.close())
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
  const { port } = http.address() as AddressInfo
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections()
        http.close(() => resolve())
      })
  })
}
