import { Console, Effect, Layer } from "effect"
import { SecretKey } from "../auth/SecretKey.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { type McpServerConfig, toMcpServerConfig } from "../config/McpServerConfig.ts"
import { failureReason } from "../mcp/failureReason.ts"
import { makeMcpConnection } from "../mcp/McpConnection.ts"
import { McpServerStore } from "../mcp/McpServerStore.ts"
import { redactFor } from "../mcp/redact.ts"
import { MCP_SEPARATOR, serverOf } from "../mcp/toolNames.ts"
import * as Database from "../store/Database.ts"
import { CliFailure } from "./CliFailure.ts"
import { closest } from "./closest.ts"
import { cliConfig, explainSetup } from "./setupFailure.ts"

/**
 * The MCP servers a key may name tools of: the config file's and those
 * registered through the admin API (docs/DESIGN.md §9), the config file's
 * winning a shared id as on the server.
 */
const knownServers = Effect.gen(function*() {
  const config = yield* AppConfig
  const stored = yield* (yield* McpServerStore).list
  const configIds = new Set(config.mcpServers.map((server) => server.id))
  return [
    ...config.mcpServers,
    ...stored.filter((row) => !configIds.has(row.id)).map((row) =>
      toMcpServerConfig({ id: row.id, url: row.url, headers: row.headers })
    )
  ]
}).pipe(
  Effect.provide(McpServerStore.layer.pipe(
    Layer.provide(Layer.merge(Database.layer, SecretKey.layer)),
    Layer.provideMerge(cliConfig)
  )),
  Effect.catchTag("SchemaError", (error) => Effect.fail(new CliFailure({ message: error.message }))),
  Effect.mapError((error) => error._tag === "CliFailure" ? error : explainSetup(error))
)

/** Names in order of likeness to `text`, for an error that lists what was meant. */
const byLikeness = (text: string, names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const rest = [...names].sort()
  const ordered: Array<string> = []
  while (rest.length > 0) {
    const next = closest(text, rest)!
    ordered.push(next)
    rest.splice(rest.indexOf(next), 1)
  }
  return ordered
}

/**
 * One server's tool names as parley names them, or undefined when it cannot
 * be asked now (the key may still name them: a server that is down today is
 * not a typo). Listing may take a while, so it says what it waits for.
 */
const toolsOf = (server: McpServerConfig) =>
  Effect.gen(function*() {
    yield* Console.error(`Listing the tools of MCP server ${server.id}…`)
    const connection = makeMcpConnection(server, () => undefined)
    return yield* Effect.tryPromise(() => connection.list(server.listTimeoutMs)).pipe(
      Effect.map((listing) => listing.tools.map((tool) => `${server.id}${MCP_SEPARATOR}${tool.name}`)),
      Effect.ensuring(Effect.promise(() => connection.close())),
      Effect.catch((error) =>
        Console.error(
          `Warning: could not list the tools of MCP server ${server.id} (${
            redactFor(server)(failureReason(server, error.cause))
          }); its tool names are kept unchecked.`
        ).pipe(Effect.as(undefined))
      )
    )
  })

/**
 * Checks `<server>__*` and `<server>__<tool>` entries of `flag` against the
 * known servers and, for a named tool, the server's own list: a typo is an
 * error naming what exists, closest first.
 */
export const checkMcpEntries = (entries: ReadonlyArray<string>, flag: string) =>
  Effect.gen(function*() {
    if (entries.length === 0) return
    const servers = yield* knownServers
    const listed = new Map<string, ReadonlyArray<string> | undefined>()
    for (const entry of entries) {
      const id = serverOf(entry)!
      const server = servers.find((candidate) => candidate.id === id)
      if (server === undefined) {
        const known = byLikeness(id, servers.map((candidate) => candidate.id))
        return yield* new CliFailure({
          message: `${flag}: unknown MCP server "${id}" in "${entry}". ${
            known.length === 0
              ? "No MCP server is configured: add one to the config file's mcpServers or POST /admin/v1/mcp-servers."
              : `Known MCP servers: ${known.join(", ")}.`
          }`
        })
      }
      if (entry === `${id}${MCP_SEPARATOR}*`) continue
      if (!listed.has(id)) listed.set(id, yield* toolsOf(server))
      const tools = listed.get(id)
      if (tools === undefined || tools.includes(entry)) continue
      return yield* new CliFailure({
        message: `${flag}: MCP server ${id} has no tool "${entry}". Its tools: ${
          tools.length === 0 ? "none" : byLikeness(entry, tools).join(", ")
        } (or ${id}${MCP_SEPARATOR}* for all of them).`
      })
    }
  })
