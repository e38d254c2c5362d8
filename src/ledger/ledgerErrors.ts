import { Schema } from "effect"

/** No request with this correlation id in the ledger, or none the caller may see (docs/DESIGN.md §6). */
export class RequestNotFound extends Schema.TaggedError<RequestNotFound>()("RequestNotFound", {
  correlationId: Schema.String
}) {
  override get message() {
    return `No request with correlation id ${this.correlationId}`
  }
}
