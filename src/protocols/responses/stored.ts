import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import type { ApiKey } from "../../domain/ApiKey.ts"
import { isRecord } from "../../domain/isRecord.ts"
import { BodyTooLarge } from "../../http/requestErrors.ts"
import { PreviousResponseNotFound } from "../../store/responseErrors.ts"
import type { ResponseLookup, StoredResponse } from "../../store/StoredResponses.ts"

/** What a response to be stored carries from its request to its end (docs/DESIGN.md §14). */
export interface StoredWire {
  /** `resp_` and 128 random bits: unguessable, and unique whatever correlation id the client sent. */
  readonly id: string
  /** The random part: the answer's item ids carry it, so items of a continued conversation never collide. */
  readonly prefix: string
  readonly keyId: string
  /** The whole conversation's input items (the previous response's first), each with an id. */
  readonly input: ReadonlyArray<unknown>
}

type Item = Readonly<Record<string, unknown>>

const ID_PREFIXES: Readonly<Record<string, string>> = {
  message: "msg",
  function_call: "fc",
  function_call_output: "fco",
  reasoning: "rs",
  mcp_approval_response: "mcpra",
  mcp_list_tools: "mcpl"
}

// An item id parley made: a kind, the response's random part, the item's place (`in` for an input item).
const ITEM_ID = /^[a-z]+_([0-9a-f]{32})_(?:in)?\d+$/

/** The stored response an item id parley made belongs to; `undefined` for any other id. */
export const responseOfItem = (itemId: string): string | undefined => {
  const random = ITEM_ID.exec(itemId)?.[1]
  return random === undefined ? undefined : `resp_${random}`
}

/** A body's input as items: a string is one user message. */
export const itemsOf = (input: unknown): ReadonlyArray<unknown> =>
  typeof input === "string" ? [{ type: "message", role: "user", content: input }] : input as ReadonlyArray<unknown>

/**
 * The input items as kept, so that OpenAI's list of them can page by id:
 * each has an id (its own, else one of the response's), a message its
 * `type` and its text as a part, as OpenAI's own list shows them.
 */
const keptItems = (items: ReadonlyArray<unknown>, prefix: string): ReadonlyArray<unknown> =>
  items.map((each, index) => {
    const item = each as Item
    const type = typeof item.type === "string" ? item.type : "message"
    const id = typeof item.id === "string" ? item.id : `${ID_PREFIXES[type] ?? "item"}_${prefix}_in${index}`
    if (type !== "message" || typeof item.content !== "string") return { ...item, id, type }
    const part = item.role === "assistant"
      ? { type: "output_text", text: item.content, annotations: [] }
      : { type: "input_text", text: item.content }
    return { ...item, id, type, content: item.content === "" ? [] : [part] }
  })

/** A response to store: its id, and its whole input as kept. */
export const storedWire = (key: ApiKey, input: unknown): StoredWire => {
  const prefix = randomBytes(16).toString("hex")
  return { id: `resp_${prefix}`, prefix, keyId: key.id, input: keptItems(itemsOf(input), prefix) }
}

/**
 * A response a WebSocket connection remembers (./socket.ts): its whole input
 * as its turn decoded it, parsed, and about how large that input was, so
 * that continuing it neither makes nor parses its text again.
 */
export interface RememberedResponse extends StoredResponse {
  readonly items: ReadonlyArray<unknown>
  readonly bytes: number
}

const isRemembered = (found: StoredResponse): found is RememberedResponse => "items" in found

/**
 * A body that continues a stored response (`previous_response_id`): its
 * input after the stored one's input and output items, as if the client had
 * sent the whole conversation, which is then held to the body limit as such
 * a body would be (a 413 naming the continuation). The stored response must
 * be the key's own; `instructions` are not carried over (OpenAI's rule).
 */
export const continuedBody = (
  stored: ResponseLookup,
  key: ApiKey,
  limit: number,
  body: unknown
): Effect.Effect<unknown, PreviousResponseNotFound | BodyTooLarge> => {
  if (!isRecord(body) || typeof body.previous_response_id !== "string") return Effect.succeed(body)
  // A broken input is the decoder's to name.
  if (typeof body.input !== "string" && !Array.isArray(body.input)) return Effect.succeed(body)
  const id = body.previous_response_id
  return Effect.flatMap(
    stored.get(id, key.id),
    (found): Effect.Effect<unknown, PreviousResponseNotFound | BodyTooLarge> => {
      if (found === undefined) return Effect.fail(new PreviousResponseNotFound({ id }))
      const input = itemsOf(body.input)
      const remembered = isRemembered(found)
      const size = (remembered ? found.bytes : Buffer.byteLength(found.input)) + Buffer.byteLength(found.response) +
        Buffer.byteLength(JSON.stringify(input))
      if (size > limit) {
        return Effect.fail(
          new BodyTooLarge({
            limit,
            advice:
              `The conversation of previous_response_id '${id}' with this input is ${size} bytes: start a new one, or send a shorter conversation in input`
          })
        )
      }
      const output = (JSON.parse(found.response) as { readonly output: ReadonlyArray<unknown> }).output
      return Effect.succeed({
        ...body,
        input: [...remembered ? found.items : JSON.parse(found.input) as ReadonlyArray<unknown>, ...output, ...input]
      })
    }
  )
}
