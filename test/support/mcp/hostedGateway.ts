import type { Tool } from "../../../src/tools/Tool.ts"
import { startGateway, type TestGateway } from "../gateway.ts"
import { httpServerEntry } from "./everything.ts"
import { startFakeMcpServer } from "./fakeServer.ts"

export type FakeServer = Awaited<ReturnType<typeof startFakeMcpServer>>

const wordSchema = { type: "object" as const, properties: { word: { type: "string" } } }

/**
 * A gateway for the doors' hosted MCP tests (docs/DESIGN.md §14): `tools`
 * as parley's own, a configured MCP server `dict` (its tool `lookup`), and
 * `stray`, a server no operator configured, which a body pointing at it
 * must never reach.
 */
export const startHostedMcpGateway = async (tools: ReadonlyArray<Tool>) => {
  const dict = await startFakeMcpServer(wordSchema)
  const stray = await startFakeMcpServer(wordSchema)
  const gateway: TestGateway = await startGateway({
    tools: [...tools],
    config: { mcpServers: [httpServerEntry("dict", dict.url)] }
  })
  const close = async () => {
    await gateway.close()
    await dict.close()
    await stray.close()
  }
  return { gateway, dict, stray, close }
}
