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

/** No MCP server has this id (docs/DESIGN.md §9). */
export class McpServerNotFound extends Schema.TaggedError<McpServerNotFound>()("McpServerNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No MCP server with id ${this.id}`
  }
}

/** A server with this id is registered already, in the config file or through the admin API. */
export class McpServerExists extends Schema.TaggedError<McpServerExists>()("McpServerExists", {
  id: Schema.String,
  source: Schema.Literals(["config", "api"])
}) {
  override get message() {
    return this.source === "config"
      ? `An MCP server with id ${this.id} is registered in the config file`
      : `An MCP server with id ${this.id} already exists`
  }
}

/** The config file's servers are changed there, not through the admin API (docs/DESIGN.md §9). */
export class McpServerFromConfig extends Schema.TaggedError<McpServerFromConfig>()("McpServerFromConfig", {
  id: Schema.String
}) {
  override get message() {
    return `MCP server ${this.id} comes from the config file: change or remove it there`
  }
}
