import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentKey } from "../api/Authentication.ts"
import { allowsTool } from "../domain/ApiKey.ts"
import { configSchemaDocument } from "../domain/ChatContext.ts"
import { promptTypeDescriptions, promptTypes } from "../domain/PromptType.ts"
import { McpRegistry } from "../mcp/McpRegistry.ts"
import { ChangeFeed } from "../store/ChangeFeed.ts"
import type { Tool } from "../tools/Tool.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { makeKeyModels } from "./keyModels.ts"
import { cachedJson, makeResponseCache } from "./ResponseCache.ts"

const HOUR_MS = 3_600_000
/** With MCP servers, a key's tools follow the servers' lists (kept 5 min by default; docs/DESIGN.md §9). */
const MCP_MAX_AGE_S = 60

const describeTool = (tool: Tool) => ({
  name: tool.name,
  description: tool.description,
  category: tool.category,
  requiresSandbox: tool.requiresSandbox,
  ...(tool.optionalSandbox === undefined ? {} : { optionalSandbox: tool.optionalSandbox }),
  requiredContext: tool.requiredContext.map((requirement) => requirement.field),
  promptTypes: tool.promptTypes
})

export const CatalogHandlers = HttpApiBuilder.group(
  Api,
  "catalog",
  Effect.fn(function*(handlers) {
    const keyModels = yield* makeKeyModels((models) => ({
      success: true,
      data: {
        models: models.map(({ categories, contextWindow, id, name }) => ({ id, name, categories, contextWindow }))
      }
    }))
    const tools = yield* ToolRegistry
    const mcp = yield* McpRegistry
    const toolsCache = makeResponseCache(HOUR_MS)
    // Bodies are kept by allow-list, so a key's new lists already pick another entry; the tools of MCP servers
    // are not in that key, so their changes clear the bodies, and key and account changes do too, on every
    // instance (docs/DESIGN.md §8). Changes are rare; the next request rebuilds.
    const feed = yield* ChangeFeed
    yield* Effect.forEach(
      ["keys", "accounts", "mcp-servers"] as const,
      (topic) => feed.subscribe(topic, () => toolsCache.clear)
    )
    const promptTypeList = promptTypes.map((id) => ({ id, description: promptTypeDescriptions[id] }))
    const configSchema = configSchemaDocument()

    return handlers
      .handle("models", () => Effect.flatMap(Effect.service(CurrentKey), keyModels))
      .handle("tools", () =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          // The key's MCP tools from the servers' lists (fresh, or listed now); an entry
          // is kept while no server's offer changed (the registry's generation).
          const mcpTools = mcp.servers().length === 0 ? [] : yield* mcp.toolsFor(key)
          const body = yield* toolsCache.get(`${mcp.generation()}\n${key.allowedTools.join("\n")}`, () =>
            JSON.stringify({
              success: true,
              data: {
                tools: [...tools.all.filter((tool) => allowsTool(key, tool.name)), ...mcpTools].map(describeTool)
              }
            }))
          return cachedJson(body, mcp.servers().length === 0 ? 3600 : MCP_MAX_AGE_S)
        }))
      .handle("promptTypes", () => Effect.succeed({ success: true as const, data: { promptTypes: promptTypeList } }))
      .handle("configSchema", () => Effect.succeed({ success: true as const, data: configSchema }))
  })
)
