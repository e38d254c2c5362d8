import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Predicate } from "effect"
import { STATUS_CODES } from "node:http"
import type { McpServerConfig } from "../config/McpServerConfig.ts"
import { connectionFailure } from "../net/connectionFailure.ts"

/**
 * Why an MCP server could not be used, in words its operator can act on
 * (docs/DESIGN.md §9): the admin API's `reason` for an unreachable server,
 * and the planning and call errors. The SDK and fetch say "fetch failed" or
 * "MCP error -32001: Request timed out"; what failed is in the error's
 * cause, its status or its code. Not redacted: the caller runs it through
 * the server's redactor, as anything a server words may echo a credential.
 */
export const failureReason = (server: McpServerConfig, error: unknown): string => {
  if (error instanceof McpError) return protocolFailure(server, error)
  if (error instanceof StreamableHTTPError) return httpFailure(error)
  if (server.transport === "http") {
    const connection = connectionFailure(new URL(server.url), error)
    if (connection !== undefined) return connection
  } else {
    const start = startFailure(server.command, error)
    if (start !== undefined) return start
  }
  return error instanceof Error ? error.message : String(error)
}

const protocolFailure = (server: McpServerConfig, error: McpError): string => {
  if (error.code === ErrorCode.RequestTimeout) {
    const data: unknown = error.data
    const ms = Predicate.isObject(data) && "timeout" in data && typeof data.timeout === "number"
      ? data.timeout
      : undefined
    return ms === undefined ? `timed out: ${error.message}` : `timed out: no answer within ${ms} ms`
  }
  // The transport ended under a request (not a cancellation, which says so).
  if (error.code === ErrorCode.ConnectionClosed && error.message.endsWith("Connection closed")) {
    return server.transport === "stdio"
      ? `the command ${server.command} exited (or closed its output) before it answered`
      : "the server closed the connection before it answered"
  }
  return error.message
}

const BODY_EXCERPT_LENGTH = 200

// What to check first, for the statuses an operator's own setting causes.
const STATUS_HINTS: Readonly<Record<number, string>> = {
  401: "check the credentials in its headers",
  403: "check the credentials in its headers",
  404: "check the URL's path",
  405: "check the URL: is it the server's MCP endpoint?"
}

/** The SDK's error for an answer that is not MCP: an HTTP status (`code`), or -1 for a wrong content type. */
const httpFailure = (error: StreamableHTTPError): string => {
  // The SDK's words before what the server said.
  const said = error.message
    .replace(/^Streamable HTTP error: (?:Error POSTing to endpoint: |Failed to open SSE stream: )?/, "")
    .replace(/\s+/g, " ")
    .trim()
  const status = error.code
  if (status === undefined || status < 100) return `the server's answer is not MCP: ${said}`
  const hint = STATUS_HINTS[status]
  const excerpt = said.length > BODY_EXCERPT_LENGTH ? `${said.slice(0, BODY_EXCERPT_LENGTH)}…` : said
  return [
    `the server answered HTTP ${status} ${STATUS_CODES[status] ?? ""}`.trimEnd(),
    hint === undefined ? "" : ` (${hint})`,
    excerpt === "" ? "" : `: ${excerpt}`
  ].join("")
}

/** A stdio server's command that could not be started (spawn's error, with `code`). */
const startFailure = (command: string, error: unknown): string | undefined => {
  if (!Predicate.isObject(error) || !("code" in error) || !Predicate.isString(error.code)) return undefined
  if (!("syscall" in error) || !Predicate.isString(error.syscall) || !error.syscall.startsWith("spawn")) {
    return undefined
  }
  switch (error.code) {
    case "ENOENT":
      return `command not found: ${command} (neither on PATH nor a file)`
    case "EACCES":
      return `command ${command} cannot be run: permission denied (EACCES)`
    default:
      return `command ${command} could not start (${error.code})`
  }
}
