import { Schema } from "effect"

/** A promptType outside `allowed` (docs/DESIGN.md §3.5). */
export class InvalidPromptType extends Schema.TaggedError<InvalidPromptType>()("InvalidPromptType", {
  promptType: Schema.String,
  allowed: Schema.Array(Schema.String)
}) {
  override get message() {
    return `Invalid promptType "${this.promptType}". Allowed values: ${this.allowed.join(", ")}`
  }
}
