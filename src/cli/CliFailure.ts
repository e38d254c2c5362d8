import { Schema } from "effect"
import { CliError } from "effect/cli"

/**
 * A failure the operator can act on. `Command.run` prints its message (which
 * says what to do next) on stderr, and the process exits non-zero.
 */
export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String
}) {
  override get [CliError.userMessage]() {
    return this.message
  }
}
