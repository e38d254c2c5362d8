import { Schema } from "effect"

/** /admin/v1 without an operator token or a console session (docs/DESIGN.md §6). */
export class MissingAdminCredentials extends Schema.TaggedError<MissingAdminCredentials>()(
  "MissingAdminCredentials",
  {}
) {
  override get message() {
    return "Missing credentials: send Authorization: Bearer <admin token> or sign in at POST /admin/v1/session"
  }
}

/** A wrong admin token, an API key, or an unknown, expired or signed-out session: the client is not told which. */
export class InvalidAdminCredentials extends Schema.TaggedError<InvalidAdminCredentials>()(
  "InvalidAdminCredentials",
  {}
) {
  override get message() {
    return "Invalid or expired admin credentials"
  }
}

/** A console session's unsafe request without the `X-CSRF-Token` its sign-in answered. */
export class CsrfRejected extends Schema.TaggedError<CsrfRejected>()("CsrfRejected", {}) {
  override get message() {
    return "Missing or invalid X-CSRF-Token header"
  }
}

/** Something only the operator may do. */
export class OperatorOnly extends Schema.TaggedError<OperatorOnly>()("OperatorOnly", {}) {
  override get message() {
    return "Only the operator (PARLEY_ADMIN_TOKEN) may do this"
  }
}

/** Allow-list entries naming no model or tool of the catalog. */
export class UnknownAllowListEntries extends Schema.TaggedError<UnknownAllowListEntries>()(
  "UnknownAllowListEntries",
  { models: Schema.Array(Schema.String), tools: Schema.Array(Schema.String) }
) {
  override get message() {
    return `Unknown allow-list entries: ${[...this.models, ...this.tools].join(", ")}`
  }
}

/** Allow-list entries wider than the owning account's: a key can only narrow its account. */
export class WiderThanAccount extends Schema.TaggedError<WiderThanAccount>()("WiderThanAccount", {
  models: Schema.Array(Schema.String),
  tools: Schema.Array(Schema.String)
}) {
  override get message() {
    return `Not allowed for this account: ${[...this.models, ...this.tools].join(", ")}`
  }
}
