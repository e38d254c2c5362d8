import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { inputItemsPage, pageQueryOf } from "../../../src/protocols/responses/inputItemsPage.ts"

const Count = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 60 }))
const Limit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))
const Order = Schema.Literals(["asc", "desc"])

const itemsOf = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `msg_${index}` }))

describe("the input items' pages (issue 23 part 4)", () => {
  it.effect.prop(
    "paging by after, as the SDK does, lists every item once in the order asked; before walks back the same pages",
    [Count, Limit, Order],
    ([count, limit, order]) =>
      Effect.sync(() => {
        const items = itemsOf(count)
        const expected = order === "asc" ? items : [...items].reverse()
        const seen: Array<{ id: string }> = []
        let after: string | undefined
        for (;;) {
          const page = inputItemsPage(items, { after, limit, order })
          assert.isTrue("object" in page)
          if (!("object" in page)) return
          assert.isAtMost(page.data.length, limit)
          seen.push(...page.data)
          assert.strictEqual(page.first_id, page.data[0]?.id ?? null)
          assert.strictEqual(page.last_id, page.data.at(-1)?.id ?? null)
          if (!page.has_more) break
          after = page.last_id!
        }
        assert.deepStrictEqual(seen, expected)
        if (count === 0) return
        const back = inputItemsPage(items, { before: expected.at(-1)!.id, limit, order })
        assert.isTrue("object" in back && back.data.length === Math.min(limit, count - 1))
      })
  )

  it.effect.prop(
    "reads any query: OpenAI's values, or issues naming the field, never a throw",
    [Schema.Record(Schema.Literals(["after", "before", "limit", "order", "include"]), Schema.String)],
    ([params]) =>
      Effect.sync(() => {
        const query = pageQueryOf(new URLSearchParams(params))
        if ("limit" in query) {
          assert.isTrue(Number.isInteger(query.limit) && query.limit >= 1 && query.limit <= 100)
          assert.include(["asc", "desc"], query.order)
        } else {
          assert.isAbove(query.length, 0)
          for (const issue of query) assert.match(issue, /^"(after|order|limit)"/)
        }
      })
  )

  it("defaults to the last 20 items first, and names a cursor that is no item", () => {
    const page = inputItemsPage(itemsOf(25), pageQueryOf(new URLSearchParams()) as never)
    assert.isTrue("object" in page && page.data[0]!.id === "msg_24" && page.data.length === 20 && page.has_more)
    assert.deepStrictEqual(inputItemsPage(itemsOf(3), { after: "nope", limit: 5, order: "asc" }), [
      `"after" is no input item of this response`
    ])
  })
})
