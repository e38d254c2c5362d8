import { Clock, Effect } from "effect"
import type { McpServerConfig } from "../config/McpServerConfig.ts"
import { type Tool, ToolFailure } from "../tools/Tool.ts"
import { failureReason } from "./failureReason.ts"
import { makeMcpConnection, type McpListing, type McpToolInfo } from "./McpConnection.ts"
import { McpServerUnavailable } from "./mcpErrors.ts"
import { makeMcpTool } from "./mcpTool.ts"
import { redactFor } from "./redact.ts"
import { mcpToolName } from "./toolNames.ts"

/** A server's tools as parley offers them, and those held back for a changed input schema. */
export interface ServerTools {
  readonly tools: ReadonlyArray<Tool>
  /** Parley names (`<server>__<tool>`) of the tools held back until the operator refreshes the server. */
  readonly heldBack: ReadonlyArray<string>
}

/** A tool list is kept this long unless the server says how long (`ttlMs`) (docs/DESIGN.md §9). */
export const DEFAULT_TOOLS_TTL_MS = 5 * 60_000
/** A server that could not list its tools is asked again after this long, not on every request. */
const FAILURE_TTL_MS = 5_000

// Key order does not change a schema: compare a canonical form.
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner)

type Cached =
  | { readonly ok: true; readonly tools: ServerTools; readonly expires: number }
  | { readonly ok: false; readonly failure: McpServerUnavailable; readonly expires: number }

/** One registered MCP server: its connection, its cached tool list, the input schemas its tools were accepted with. */
export interface McpServerSource {
  readonly config: McpServerConfig
  /** The cached list while fresh, else a new tools/list (docs/DESIGN.md §9). */
  readonly tools: Effect.Effect<ServerTools, McpServerUnavailable>
  /** The last list read, fresh or not; undefined before the first or after a failure. */
  readonly cached: () => ServerTools | undefined
  /** Accepts the tools' current input schemas (releasing held-back tools) and lists them again. */
  readonly refresh: Effect.Effect<ServerTools, McpServerUnavailable>
  readonly close: Effect.Effect<void>
}

/** `onChange` is told whenever what the server offers may have changed (a new list, a list-changed notification). */
export const makeMcpServerSource = (config: McpServerConfig, onChange: () => void): McpServerSource => {
  const redact = redactFor(config)
  const accepted = new Map<string, string>()
  let cached: Cached | undefined
  let pending: Promise<McpListing> | undefined

  const connection = makeMcpConnection(config, () => {
    cached = undefined
    onChange()
  })

  const call = (tool: string, args: Record<string, unknown>, signal: AbortSignal) =>
    Effect.tryPromise({
      try: (interrupted) =>
        connection.call(tool, args, {
          signal: AbortSignal.any([signal, interrupted]),
          timeoutMs: config.callTimeoutMs
        }),
      catch: (error) =>
        new ToolFailure(`MCP server "${config.id}" failed the call: ${redact(failureReason(config, error))}`)
    })

  const toolsOf = (listing: McpListing) =>
    Effect.gen(function*() {
      const tools: Array<Tool> = []
      const heldBack: Array<string> = []
      for (const info of listing.tools) {
        const schema = canonical(info.inputSchema)
        const before = accepted.get(info.name)
        if (before === undefined) accepted.set(info.name, schema)
        if (before === undefined || before === schema) {
          tools.push(makeTool(info))
        } else {
          heldBack.push(mcpToolName(config.id, info.name))
          yield* Effect.logWarning(
            `MCP tool ${
              mcpToolName(config.id, info.name)
            } changed its input schema: held back until the server is refreshed`
          )
        }
      }
      return { tools, heldBack } satisfies ServerTools
    })

  // A tool keeps its parley Tool (and so its compiled schema) while its listing is unchanged.
  const built = new Map<string, { readonly listing: string; readonly tool: Tool }>()
  const makeTool = (info: McpToolInfo): Tool => {
    const listing = canonical(info)
    const known = built.get(info.name)
    if (known !== undefined && known.listing === listing) return known.tool
    const tool = makeMcpTool(config.id, info, call)
    built.set(info.name, { listing, tool })
    return tool
  }

  const list = Effect.gen(function*() {
    const listing = yield* Effect.tryPromise({
      try: () => {
        pending ??= connection.list(config.listTimeoutMs).finally(() => {
          pending = undefined
        })
        return pending
      },
      catch: (error) => new McpServerUnavailable({ server: config.id, reason: redact(failureReason(config, error)) })
    }).pipe(
      Effect.tapError((failure) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() => {
            cached = { ok: false, failure, expires: now + FAILURE_TTL_MS }
          }))
      )
    )
    const tools = yield* toolsOf(listing)
    const now = yield* Clock.currentTimeMillis
    cached = { ok: true, tools, expires: now + (listing.ttlMs ?? DEFAULT_TOOLS_TTL_MS) }
    onChange()
    return tools
  })

  return {
    config,
    tools: Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const entry = cached
      if (entry === undefined || entry.expires <= now) return list
      return entry.ok ? Effect.succeed(entry.tools) : Effect.fail(entry.failure)
    }),
    cached: () => (cached?.ok === true ? cached.tools : undefined),
    refresh: Effect.suspend(() => {
      accepted.clear()
      cached = undefined
      return list
    }),
    close: Effect.promise(() => connection.close().catch(() => undefined))
  }
}
