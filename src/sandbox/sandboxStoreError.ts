import { Schema } from "effect"

/** The sandbox records or their folders could not be read or written; the message says which and why. */
export class SandboxStoreError extends Schema.TaggedError<SandboxStoreError>()("SandboxStoreError", {
  message: Schema.String
}) {}
