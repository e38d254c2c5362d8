import type { McpServerConfig } from "../../../src/config/McpServerConfig.ts"
import { startGateway } from "../gateway.ts"
import { makeTestTool } from "../tools.ts"
import { FUZZ_BODY_LIMIT } from "./chatBodies.ts"

/** An MCP server nothing listens for: its tools are skipped under contextStrategy=skip, named in X-Tools-Skipped. */
export const downMcpServer = {
  id: "down",
  transport: "http",
  url: "http://127.0.0.1:9/mcp",
  headers: {},
  callTimeoutMs: 1_000,
  listTimeoutMs: 1_000
} as McpServerConfig

/**
 * A gateway as the fuzzers expect it (chatBodies.ts, doorCases.ts), answering
 * "ok" to whatever reaches the model: a tool `echo`, the MCP server `down`, a
 * key allowed `test/*`, `echo` and `down__*`, a body limit of FUZZ_BODY_LIMIT.
 */
export const startFuzzGateway = async () => {
  const gateway = await startGateway({
    tools: [makeTestTool({ name: "echo" })],
    bodyLimitBytes: FUZZ_BODY_LIMIT,
    config: { mcpServers: [downMcpServer] }
  })
  gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
  const { secret } = await gateway.createKey({ models: ["test/*"], tools: ["echo", "down__*"] })
  return { gateway, secret }
}
