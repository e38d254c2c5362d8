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

/**
 * The external authentication service (RFC 7662 introspection) did not
 * answer in time, or answered with a failure: the token is neither admitted
 * nor refused (docs/DESIGN.md §6). `reason` is for logs, never for clients.
 */
export class AuthServiceUnavailable extends Schema.TaggedError<AuthServiceUnavailable>()("AuthServiceUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return "The authentication service is unavailable right now. Retry later."
  }
}

/** A key that was revoked cannot change state again, nor be rotated. */
export class KeyRevoked extends Schema.TaggedError<KeyRevoked>()("KeyRevoked", {
  id: Schema.String
}) {
  override get message() {
    return `Key ${this.id} is revoked; revocation is final. Create a new key instead.`
  }
}
