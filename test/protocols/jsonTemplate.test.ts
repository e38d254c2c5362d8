import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { jsonTemplate } from "../../src/protocols/jsonTemplate.ts"

// Its holes in the text: a, c, a again, b.
const shape = (a: unknown, b: unknown, c: unknown) => ({
  type: "shape",
  a,
  nested: { c, list: [a, 1, "\u0000 text"] },
  b,
  last: null
})
const template = jsonTemplate(shape, { before: "data: " })
const event = jsonTemplate((id: unknown, delta: unknown, sequence: unknown) => ({ type: "delta", id, delta, sequence }))
// A stream's events are filled but for their sequence number, which the stream writes.
const unnumbered = (...json: ReadonlyArray<string>) =>
  (event.fill as (...json: ReadonlyArray<string>) => string)(...json)
const json = (value: unknown) => JSON.stringify(value)

describe("jsonTemplate: JSON texts with holes (BENCHMARKS.md, issue 21)", () => {
  it.prop(
    "filled with JSON texts, is what JSON.stringify writes of the whole, byte for byte",
    [Schema.Json, Schema.Json, Schema.Json],
    ([a, b, c]) => {
      assert.strictEqual(template.fill(json(a), json(b), json(c)), `data: ${JSON.stringify(shape(a, b, c))}`)
    }
  )

  it.prop(
    "given fewer texts, stops at the first hole left open; `with` fills the first holes once",
    [Schema.Json, Schema.Json, Schema.Int],
    ([id, delta, sequence]) => {
      const whole = JSON.stringify({ type: "delta", id, delta, sequence })
      const open = whole.slice(0, whole.lastIndexOf(`"sequence":`) + `"sequence":`.length)
      assert.strictEqual(unnumbered(json(id), json(delta)), open)
      const bound = event.with(json(id))
      assert.strictEqual((bound.fill as (json: string) => string)(json(delta)), open)
      assert.strictEqual(bound.fill(json(delta), json(sequence)), whole)
    }
  )

  it.prop("leaves an object open for more members", [Schema.Json, Schema.String], ([a, more]) => {
    const open = jsonTemplate((value: unknown) => ({ value, constant: [true] }), { open: true })
    assert.strictEqual(
      `${open.fill(json(a))},"more":${json(more)}}`,
      JSON.stringify({ value: a, constant: [true], more })
    )
  })

  it("fills only the first holes once, and no hole used again after them", () => {
    assert.throws(() => jsonTemplate((a: unknown, b: unknown) => ({ b, a })).with("1"), /first holes/)
    assert.throws(() => template.with("1"), /first holes/)
  })
})
