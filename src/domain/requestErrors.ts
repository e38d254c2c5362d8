import { Schema } from "effect"
import { headline } from "./requestIssues.ts"

/** A body that does not match its schema; each issue is a sentence naming its field (requestIssues.ts). */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  issues: Schema.Array(Schema.String)
}) {
  override get message() {
    return headline(this.issues)
  }
}

/** A body that is not JSON; `reason` is the parser's. */
export class MalformedJson extends Schema.TaggedError<MalformedJson>()("MalformedJson", {
  reason: Schema.String
}) {
  override get message() {
    return `Malformed JSON body: ${this.reason}`
  }
}

/**
 * A conversation the model cannot be sent, though every message has a valid
 * shape (a tool call without its result): the client's mistake, named at a
 * 0-based `path` such as `messages[1].parts[0]` (docs/DESIGN.md §3.18).
 */
export class InvalidHistory extends Schema.TaggedError<InvalidHistory>()("InvalidHistory", {
  path: Schema.String,
  /** Reads after the quoted path: `is a tool call without its result`. */
  problem: Schema.String
}) {
  override get message() {
    return `Invalid history: "${this.path}" ${this.problem}`
  }
}
