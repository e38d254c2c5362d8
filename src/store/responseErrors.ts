import { Schema } from "effect"

/**
 * `GET`, `DELETE /v1/responses/{id}` of no response the key stored: an
 * unknown id, an expired one and another key's answer alike, so that a key
 * cannot probe which ids exist (docs/DESIGN.md §14).
 */
export class ResponseNotFound extends Schema.TaggedError<ResponseNotFound>()("ResponseNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No response with id '${this.id}' is stored for this API key`
  }
}

/** `previous_response_id` names no response the key stored (OpenAI answers it 400, naming the field). */
export class PreviousResponseNotFound extends Schema.TaggedError<PreviousResponseNotFound>()(
  "PreviousResponseNotFound",
  { id: Schema.String }
) {
  override get message() {
    return `Previous response with id '${this.id}' not found: it was not stored (store: false), has expired, ` +
      `was deleted or belongs to another API key; send the whole conversation in input instead`
  }
}
