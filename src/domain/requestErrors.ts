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
