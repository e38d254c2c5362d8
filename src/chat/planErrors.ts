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

/** A sandboxId, given for a sandbox tool, that names no sandbox. */
export class UnknownSandbox extends Schema.TaggedError<UnknownSandbox>()("UnknownSandbox", {
  sandboxId: Schema.String
}) {
  override get message() {
    return `Unknown sandbox "${this.sandboxId}". Create one with POST /api/v1/sandboxes (or \`parley sandbox create\`); GET /api/v1/sandboxes lists yours.`
  }
}

/** A run without a conversation (decoding allows none, so that validateOnly needs none). */
export class EmptyConversation extends Schema.TaggedError<EmptyConversation>()("EmptyConversation", {}) {
  override get message() {
    return `Invalid request: "messages" must contain at least one message`
  }
}
