import { Redacted } from "effect"
import type { McpServerConfig } from "../config/McpServerConfig.ts"

/**
 * A server's text with its configured credentials (header and environment
 * values) replaced, so an error a server or its transport words can be logged
 * and told to the client (docs/DESIGN.md §9: credentials never reach logs,
 * errors or answers).
 */
export const redactFor = (server: McpServerConfig) => {
  const secrets = Object.values(server.transport === "http" ? server.headers : server.env)
    .map((value) => Redacted.value(value))
    // A value of a few characters would blank out ordinary words.
    .filter((value) => value.length >= 4)
  return (text: string): string => secrets.reduce((out, secret) => out.replaceAll(secret, "[redacted]"), text)
}
