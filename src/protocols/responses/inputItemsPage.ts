/** The query of `GET /v1/responses/{id}/input_items` as OpenAI's SDKs send it. */
export interface PageQuery {
  readonly after?: string | undefined
  readonly before?: string | undefined
  readonly limit: number
  readonly order: "asc" | "desc"
}

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

/** The query read, or the issues that name what is wrong with it. */
export const pageQueryOf = (params: URLSearchParams): PageQuery | ReadonlyArray<string> => {
  const issues: Array<string> = []
  const order = params.get("order") ?? "desc"
  if (order !== "asc" && order !== "desc") issues.push(`"order" must be asc or desc`)
  const limitText = params.get("limit")
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    issues.push(`"limit" must be an integer from 1 to ${MAX_LIMIT}`)
  }
  const after = params.get("after") ?? undefined
  const before = params.get("before") ?? undefined
  if (after !== undefined && before !== undefined) issues.push(`"after" and "before" cannot be sent together`)
  return issues.length > 0 ? issues : { after, before, limit, order: order as PageQuery["order"] }
}

type Item = { readonly id: string }

/**
 * One page of a stored response's input items, in OpenAI's list form
 * (docs/DESIGN.md §14): `desc` (the default) lists the last item first;
 * `after` an item's id lists those that follow it in that order, `before`
 * those that precede it (the nearest `limit`). An id not among the items is
 * an issue naming the field.
 */
export const inputItemsPage = (items: ReadonlyArray<Item>, query: PageQuery) => {
  const ordered = query.order === "asc" ? items : [...items].reverse()
  const cursor = query.after ?? query.before
  const at = cursor === undefined ? -1 : ordered.findIndex((item) => item.id === cursor)
  if (cursor !== undefined && at === -1) {
    return [`"${query.after === undefined ? "before" : "after"}" is no input item of this response`]
  }
  const [start, end] = query.before === undefined
    ? [at + 1, Math.min(ordered.length, at + 1 + query.limit)]
    : [Math.max(0, at - query.limit), at]
  const data = ordered.slice(start, end)
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: query.before === undefined ? end < ordered.length : start > 0
  }
}
