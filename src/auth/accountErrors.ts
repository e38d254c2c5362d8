import { Schema } from "effect"

/** No account has this id (or the caller may not see it: the answer is the same). */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No account with id ${this.id}`
  }
}

/** Another account already signs in with this email. */
export class EmailTaken extends Schema.TaggedError<EmailTaken>()("EmailTaken", {
  email: Schema.String
}) {
  override get message() {
    return `An account with email ${this.email} already exists`
  }
}

/** Wrong email or password, or a disabled account: the client is not told which. */
export class SignInFailed extends Schema.TaggedError<SignInFailed>()("SignInFailed", {}) {
  override get message() {
    return "Invalid email or password"
  }
}
