import type { Expected } from "./answerCheck.ts"

export type Body = Record<string, unknown>

/**
 * A place in a valid body where a request's text can reach a header, a log
 * line, a tool name or an id, and what the door answers with hostile text
 * there (issue 32 part 3): `wellFormed` for text without lone surrogates,
 * `lone` for text with one; `skipped`, the names `X-Tools-Skipped` must then
 * list.
 */
export interface Placement {
  readonly place: (body: Body, text: string) => Body
  readonly wellFormed: Expected
  readonly lone: Expected
  readonly skipped?: (text: string) => ReadonlyArray<string>
}

/** `items` in `field`'s list before its last one (the last user turn). */
export const beforeLast = (body: Body, field: string, items: ReadonlyArray<unknown>): Body => {
  const list = body[field] as ReadonlyArray<unknown>
  return { ...body, [field]: [...list.slice(0, -1), ...items, list.at(-1)] }
}

/**
 * A tool call and its answer in the history (`items` given the call's id and
 * name), the one or the other hostile: an id may be any text, a name must be
 * well formed.
 */
export const historyCall = (
  idField: string,
  items: (id: string, name: string) => (body: Body) => Body
): ReadonlyArray<Placement> =>
  [idField, "name"].map((field) => ({
    place: (body, text) => items(field === "name" ? "call_fuzz" : text, field === "name" ? text : "lookup")(body),
    wellFormed: "ok",
    lone: field === "name" ? "refused" : "ok"
  }))
