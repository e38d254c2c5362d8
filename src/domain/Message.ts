import type { UIMessage } from "ai"
import { Schema } from "effect"
import { MessagePart } from "./MessagePart.ts"

export const MessageRole = Schema.Literals(["user", "assistant", "system"])
export type MessageRole = typeof MessageRole.Type

/**
 * A message of the conversation, in either form the spec allows: simplified
 * `{role, content}` or full UIMessage `{id?, role, parts, metadata?}`. One
 * struct rather than a union of the two, so that a message with both
 * `content` and `parts` is judged by its parts (which win) and errors name
 * the field that is wrong.
 */
export const Message = Schema.Struct({
  id: Schema.optionalKey(Schema.String.annotate({ description: "Message id; generated when missing." })),
  role: MessageRole,
  content: Schema.optionalKey(Schema.String.annotate({ description: "Message text (simplified form)." })),
  parts: Schema.optionalKey(
    Schema.Array(MessagePart)
      .check(Schema.isNonEmpty({ message: "must contain at least one part" }))
      .annotate({ description: "UIMessage parts (full form); win over `content`." })
  ),
  metadata: Schema.optionalKey(Schema.Unknown)
})
  .check(
    Schema.makeFilter(
      (message) => message.content !== undefined || message.parts !== undefined,
      { message: `needs "content" (simplified form) or "parts" (full UIMessage form)` }
    )
  )
  .annotate({
    description:
      "Either simplified `{role, content}` or full UIMessage form `{id?, role, parts, metadata?}`; with both, `parts` is used."
  })
export type Message = typeof Message.Type

// A random prefix per process and a counter: ids unique enough within and
// across requests without paying for a random id per message.
const idPrefix = `msg_${crypto.randomUUID().slice(0, 8)}_`
let idCounter = 0
const nextId = () => `${idPrefix}${(idCounter++).toString(36)}`

/** Brings every message into UIMessage form, keeping order, roles, ids and metadata. */
export const normalizeMessages = (messages: ReadonlyArray<Message>): ReadonlyArray<UIMessage> =>
  messages.map((message) => {
    const parts = message.parts !== undefined
      // Structurally validated by MessagePart; the AI SDK's part union is the same shape.
      ? (message.parts as unknown as UIMessage["parts"])
      : [{ type: "text" as const, text: message.content ?? "" }]
    const normalized: UIMessage = { id: message.id ?? nextId(), role: message.role, parts }
    if (message.metadata !== undefined) normalized.metadata = message.metadata
    return normalized
  })
