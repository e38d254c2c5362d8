import { Schema } from "effect"

// The three messages are the spec's 401 table, word for word.

export class MissingAuthorization extends Schema.TaggedError<MissingAuthorization>()("MissingAuthorization", {}) {
  override get message() {
    return "Missing authorization header"
  }
}

export class InvalidAuthorizationFormat
  extends Schema.TaggedError<InvalidAuthorizationFormat>()("InvalidAuthorizationFormat", {})
{
  override get message() {
    return "Invalid authorization format. Use: Bearer <token>"
  }
}

/** Unknown, inactive, revoked or expired: the client is not told which. */
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", {}) {
  override get message() {
    return "Invalid or expired API key"
  }
}

/** Why a request could not be authenticated. */
export type Unauthenticated = MissingAuthorization | InvalidAuthorizationFormat | InvalidApiKey

/** No key has this id. */
export class KeyNotFound extends Schema.TaggedError<KeyNotFound>()("KeyNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No key with id ${this.id}`
  }
}
