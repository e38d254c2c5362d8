import { Schema } from "effect"

/** An MCP server that could not list its tools when a request was planned (docs/DESIGN.md §9). */
export class McpServerUnavailable extends Schema.TaggedError<McpServerUnavailable>()("McpServerUnavailable", {
  server: Schema.String,
  /** Why, with the server's credentials redacted. */
  reason: Schema.String
}) {
  override get message() {
    return `MCP server "${this.server}" is unavailable: ${this.reason}`
  }
}

/** A tool whose input schema changed since the operator last refreshed its server: held back until then. */
export class McpToolHeldBack extends Schema.TaggedError<McpToolHeldBack>()("McpToolHeldBack", {
  tool: Schema.String,
  server: Schema.String
}) {
  override get message() {
    return `Tool ${this.tool} is held back: its input schema changed on MCP server "${this.server}" and waits for the operator to refresh the server`
  }
}
