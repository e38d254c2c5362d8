import { Effect } from "effect"
import type { ApiKey } from "../../domain/ApiKey.ts"
import { isRecord } from "../../domain/isRecord.ts"
import { BodyTooLarge } from "../../http/requestErrors.ts"
import { ItemNotFound } from "../../store/responseErrors.ts"
import type { ResponseLookup, StoredResponse } from "../../store/StoredResponses.ts"
import { responseOfItem } from "./stored.ts"

type Item = Readonly<Record<string, unknown>>

const isReference = (item: unknown): item is { readonly type: "item_reference"; readonly id: string } =>
  isRecord(item) && item.type === "item_reference" && typeof item.id === "string"

// A stored response's input and output items, by id.
const itemsOf = (found: StoredResponse): ReadonlyArray<readonly [string, Item]> => {
  const output = (JSON.parse(found.response) as { readonly output: ReadonlyArray<Item> }).output
  return [...JSON.parse(found.input) as ReadonlyArray<Item>, ...output].map((item) => [item.id as string, item])
}

/**
 * A body whose `input` holds `item_reference` items, each replaced by the
 * item it names, as if the client had sent it (docs/DESIGN.md §14): an input
 * or output item of a response the key stored, found by the response's
 * random part its id carries, so one read per response referenced. An id
 * that names none answers `ItemNotFound` at its place before anything runs;
 * a body grown past the limit, `BodyTooLarge`. `store: false` bodies may
 * reference too (OpenAI's rule). A reference without a string id is the
 * decoder's to name.
 */
export const referencedBody = (
  stored: ResponseLookup,
  key: ApiKey,
  limit: number,
  body: unknown
): Effect.Effect<unknown, ItemNotFound | BodyTooLarge> => {
  if (!isRecord(body) || !Array.isArray(body.input)) return Effect.succeed(body)
  const input: ReadonlyArray<unknown> = body.input
  const references = input.flatMap((item, index) => isReference(item) ? [{ id: item.id, index }] : [])
  if (references.length === 0) return Effect.succeed(body)
  const responses = new Set(references.flatMap(({ id }) => responseOfItem(id) ?? []))
  return Effect.flatMap(
    Effect.forEach(responses, (id) => stored.get(id, key.id), { concurrency: "unbounded" }),
    (found): Effect.Effect<unknown, ItemNotFound | BodyTooLarge> => {
      const items = new Map(found.flatMap((response) => response === undefined ? [] : itemsOf(response)))
      const absent = references.find(({ id }) => !items.has(id))
      if (absent !== undefined) return Effect.fail(new ItemNotFound({ id: absent.id, path: `input[${absent.index}]` }))
      const resolved = { ...body, input: input.map((item) => isReference(item) ? items.get(item.id) : item) }
      const size = Buffer.byteLength(JSON.stringify(resolved))
      if (size <= limit) return Effect.succeed(resolved)
      return Effect.fail(
        new BodyTooLarge({
          limit,
          advice:
            `The body with its item_reference items replaced by the items they name is ${size} bytes: send a shorter conversation`
        })
      )
    }
  )
}
