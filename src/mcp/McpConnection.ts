import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  type CallToolResult,
  CallToolResultSchema,
  type Tool as McpToolInfo,
  ToolListChangedNotificationSchema
} from "@modelcontextprotocol/sdk/types.js"
import { Redacted } from "effect"
import type { McpServerConfig } from "../config/McpServerConfig.ts"

export type { CallToolResult, McpToolInfo }

/** A server's tools as one tools/list read them, with how long they may be kept when the server says (`ttlMs`). */
export interface McpListing {
  readonly tools: ReadonlyArray<McpToolInfo>
  readonly ttlMs: number | undefined
}

/** One server's client connection, opened on first use and again after a failure. */
export interface McpConnection {
  readonly list: (timeoutMs: number) => Promise<McpListing>
  /** Aborting `signal` (or the timeout) sends `notifications/cancelled` to the server. */
  readonly call: (
    name: string,
    args: Record<string, unknown>,
    options: { readonly signal: AbortSignal; readonly timeoutMs: number }
  ) => Promise<CallToolResult>
  readonly close: () => Promise<void>
}

const MAX_PAGES = 100

/**
 * The servers are the operator's, trusted like the partner API: no outbound
 * policy, but a redirect is a failure, never followed (docs/DESIGN.md §9).
 */
const noRedirects = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const response = await globalThis.fetch(input, { ...init, redirect: "manual" })
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel()
    throw new Error(`the server answered with a redirect (HTTP ${response.status}), which parley does not follow`)
  }
  return response
}

const transportFor = (server: McpServerConfig): Transport =>
  server.transport === "http"
    ? new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: noRedirects,
      requestInit: {
        headers: Object.fromEntries(
          Object.entries(server.headers).map(([name, value]) => [name, Redacted.value(value)])
        )
      }
    })
    : new StdioClientTransport({
      command: server.command,
      args: [...server.args],
      env: {
        ...getDefaultEnvironment(),
        ...Object.fromEntries(Object.entries(server.env).map(([name, value]) => [name, Redacted.value(value)]))
      },
      // The server's own log lines are its business; they may also echo its environment.
      stderr: "ignore"
    })

/** `ttlMs` is a newer revision's cache hint on list results; older servers leave it out. */
const ttlOf = (result: Record<string, unknown>): number | undefined =>
  typeof result["ttlMs"] === "number" && result["ttlMs"] >= 0 ? result["ttlMs"] : undefined

export const makeMcpConnection = (server: McpServerConfig, onListChanged: () => void): McpConnection => {
  let connecting: Promise<Client> | undefined

  const open = async (timeoutMs: number): Promise<Client> => {
    const client = new Client({ name: "parley", version: "0.1.0" })
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => onListChanged())
    client.onclose = () => {
      if (current === client) reset()
    }
    current = client
    await client.connect(transportFor(server), { timeout: timeoutMs })
    return client
  }
  let current: Client | undefined
  const reset = () => {
    const client = current
    connecting = undefined
    current = undefined
    if (client !== undefined) void client.close().catch(() => undefined)
  }

  // A failure of the connection (not of one tool) drops it, so the next use opens a new one.
  const withClient = async <A>(timeoutMs: number, use: (client: Client) => Promise<A>): Promise<A> => {
    connecting ??= open(timeoutMs)
    const pending = connecting
    let client: Client
    try {
      client = await pending
    } catch (error) {
      if (connecting === pending) reset()
      throw error
    }
    return use(client)
  }

  return {
    list: (timeoutMs) =>
      withClient(timeoutMs, async (client) => {
        const tools: Array<McpToolInfo> = []
        let cursor: string | undefined
        let ttlMs: number | undefined
        for (let page = 0; page < MAX_PAGES; page++) {
          const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs })
          tools.push(...result.tools)
          ttlMs = ttlOf(result)
          cursor = result.nextCursor
          if (cursor === undefined) break
        }
        return { tools, ttlMs }
      }).catch((error) => {
        reset()
        throw error
      }),
    call: (name, args, { signal, timeoutMs }) =>
      withClient(
        timeoutMs,
        (client) =>
          client.request(
            { method: "tools/call", params: { name, arguments: args } },
            CallToolResultSchema,
            { signal, timeout: timeoutMs }
          )
      ),
    close: async () => {
      const client = current
      connecting = undefined
      current = undefined
      await client?.close()
    }
  }
}
