import { Schema } from "effect"

/** The chat body was empty. */
export class EmptyBody extends Schema.TaggedError<EmptyBody>()("EmptyBody", {}) {
  override get message() {
    return "Request body is empty: send a JSON ChatRequest"
  }
}

/** The connection failed while the body was read. */
export class UnreadableBody extends Schema.TaggedError<UnreadableBody>()("UnreadableBody", {}) {
  override get message() {
    return "Could not read the request body"
  }
}

/** A body over `limit` bytes (docs/DESIGN.md §3.9); `advice` says how to send less. */
export class BodyTooLarge extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", {
  limit: Schema.Number,
  advice: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    const limit = `Request body exceeds the limit of ${this.limit} bytes`
    return this.advice === undefined ? limit : `${limit}. ${this.advice}`
  }
}

/** No endpoint answers `method` on `path`. */
export class RouteNotFound extends Schema.TaggedError<RouteNotFound>()("RouteNotFound", {
  method: Schema.String,
  path: Schema.String
}) {
  override get message() {
    return `No endpoint ${this.method} ${this.path}. See /docs for the API.`
  }
}

/**
 * GET /v1/models/{model} of a model that does not exist or that the key may
 * not use: one answer for both, so a key cannot probe which models exist.
 */
export class ModelNotFound extends Schema.TaggedError<ModelNotFound>()("ModelNotFound", {
  model: Schema.String
}) {
  override get message() {
    return `The model "${this.model}" does not exist or your API key may not use it. GET /v1/models lists the ones it may.`
  }
}

/** `path` has an endpoint, but not for `method` (docs/DESIGN.md §3.22); `allowed` are the methods it answers. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  method: Schema.String,
  path: Schema.String,
  allowed: Schema.Array(Schema.String)
}) {
  override get message() {
    return `${this.path} does not answer ${this.method}; it answers ${this.allowed.join(", ")}. See /docs for the API.`
  }
}

/** `/metrics` with a bearer token that is neither `PARLEY_METRICS_TOKEN` nor the admin token (docs/DESIGN.md §8). */
export class InvalidMetricsToken extends Schema.TaggedError<InvalidMetricsToken>()("InvalidMetricsToken", {}) {
  override get message() {
    return "Invalid metrics token. Use: Bearer <PARLEY_METRICS_TOKEN or PARLEY_ADMIN_TOKEN>"
  }
}

/** The server stopped before the request finished (docs/DESIGN.md §8): the client may retry elsewhere. */
export class ServerShuttingDown extends Schema.TaggedError<ServerShuttingDown>()("ServerShuttingDown", {}) {
  override get message() {
    return "The server is shutting down; retry the request"
  }
}

/**
 * A browser page of another origin calling /mcp: refused, as the MCP
 * transport asks of servers against DNS rebinding (docs/DESIGN.md §9).
 */
export class ForeignOrigin extends Schema.TaggedError<ForeignOrigin>()("ForeignOrigin", {
  origin: Schema.String
}) {
  override get message() {
    return `Origin ${this.origin} may not call /mcp: list it in PARLEY_CORS_ORIGINS to allow it`
  }
}

/**
 * No run kept under `id` that the caller may resume or stop (docs/DESIGN.md
 * §16): another key's run is answered alike, so a key cannot probe for them.
 */
export class RunNotFound extends Schema.TaggedError<RunNotFound>()("RunNotFound", { id: Schema.String }) {
  override get message() {
    return `No run ${this.id} of this key is kept`
  }
}

/** A resumable run asked under a chat id another key's run is kept under (docs/DESIGN.md §16). */
export class ChatIdTaken extends Schema.TaggedError<ChatIdTaken>()("ChatIdTaken", { id: Schema.String }) {
  override get message() {
    return `The chat id "${this.id}" is in use by another key's run: start the chat under a new id`
  }
}
