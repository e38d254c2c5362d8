import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentKey } from "../api/Authentication.ts"
import { allowsModel, allowsTool } from "../domain/ApiKey.ts"
import { configSchemaDocument } from "../domain/ChatContext.ts"
import { promptTypeDescriptions, promptTypes } from "../domain/PromptType.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"
import { ChangeFeed } from "../store/ChangeFeed.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { makeResponseCache } from "./ResponseCache.ts"

const HOUR_MS = 3_600_000

const cachedJson = (body: string) =>
  HttpServerResponse.text(body, {
    contentType: "application/json",
    headers: { "cache-control": "private, max-age=3600" }
  })

export const CatalogHandlers = HttpApiBuilder.group(
  Api,
  "catalog",
  Effect.fn(function*(handlers) {
    const models = yield* ModelRegistry
    const tools = yield* ToolRegistry
    const modelsCache = makeResponseCache(HOUR_MS)
    const toolsCache = makeResponseCache(HOUR_MS)
    // Bodies are kept by allow-list, so a key's new lists already pick another entry; the tools of MCP servers
    // are not in that key, so their changes clear the bodies, and key and account changes do too, on every
    // instance (docs/DESIGN.md §8). Changes are rare; the next request rebuilds.
    const feed = yield* ChangeFeed
    const clear = () => Effect.andThen(modelsCache.clear, toolsCache.clear)
    yield* Effect.forEach(["keys", "accounts", "mcp-servers"] as const, (topic) => feed.subscribe(topic, clear))
    const promptTypeList = promptTypes.map((id) => ({ id, description: promptTypeDescriptions[id] }))
    const configSchema = configSchemaDocument()

    return handlers
      .handle("models", () =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          const body = yield* modelsCache.get(key.allowedModels.join("\n"), () =>
            JSON.stringify({
              success: true,
              data: {
                models: models.catalog
                  .filter((entry) => allowsModel(key, entry.id))
                  .map(({ id, name, categories, contextWindow }) => ({ id, name, categories, contextWindow }))
              }
            }))
          return cachedJson(body)
        }))
      .handle("tools", () =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          const body = yield* toolsCache.get(key.allowedTools.join("\n"), () =>
            JSON.stringify({
              success: true,
              data: {
                tools: tools.all
                  .filter((tool) => allowsTool(key, tool.name))
                  .map((tool) => ({
                    name: tool.name,
                    description: tool.description,
                    category: tool.category,
                    requiresSandbox: tool.requiresSandbox,
                    requiredContext: tool.requiredContext.map((requirement) => requirement.field),
                    promptTypes: tool.promptTypes
                  }))
              }
            }))
          return cachedJson(body)
        }))
      .handle("promptTypes", () => Effect.succeed({ success: true as const, data: { promptTypes: promptTypeList } }))
      .handle("configSchema", () => Effect.succeed({ success: true as const, data: configSchema }))
  })
)
