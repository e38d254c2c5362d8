import { Schema } from "effect"

/** A model outside the key's allow-list. */
export class ModelNotAllowed extends Schema.TaggedError<ModelNotAllowed>()("ModelNotAllowed", {
  model: Schema.String
}) {
  override get message() {
    return "Model not available with your API key"
  }
}

/** A model id this deployment does not have (checked after the allow-list, so a key cannot probe which exist). */
export class UnknownModel extends Schema.TaggedError<UnknownModel>()("UnknownModel", {
  model: Schema.String
}) {
  override get message() {
    return `Unknown model "${this.model}". GET /api/v1/models lists the models this key can use.`
  }
}

/** A run without a conversation (decoding allows none, so that validateOnly needs none). */
export class EmptyConversation extends Schema.TaggedError<EmptyConversation>()("EmptyConversation", {}) {
  override get message() {
    return `Invalid request: "messages" must contain at least one message`
  }
}

/**
 * An approval answer in the conversation that parley cannot honour
 * (docs/DESIGN.md §10): not issued for this call, input and key, expired,
 * already honoured, or for a tool this request does not offer. Named at its
 * 0-based path, as an invalid history is.
 */
export class InvalidApproval extends Schema.TaggedError<InvalidApproval>()("InvalidApproval", {
  path: Schema.String,
  /** Reads after the quoted path. */
  problem: Schema.String
}) {
  override get message() {
    return `Invalid approval: "${this.path}" ${this.problem}`
  }
}
