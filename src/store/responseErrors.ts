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

/**
 * An `item_reference` input item names no item of a response the key stored
 * (unknown, expired, deleted or another key's alike); `path` is its place,
 * `input[3]`. OpenAI answers it 400 as "Item with id '…' not found".
 */
export class ItemNotFound extends Schema.TaggedError<ItemNotFound>()("ItemNotFound", {
  id: Schema.String,
  path: Schema.String
}) {
  override get message() {
    return `Item with id '${this.id}' not found at "${this.path}": it is not an item of a response stored for ` +
      `this API key (not stored, expired, deleted or another key's); send the item itself instead of a reference`
  }
}
