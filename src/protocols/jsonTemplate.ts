/**
 * JSON texts with holes, made once and filled per use: a stream that writes
 * the same shapes many times an answer (an item's events, the response
 * around its output) joins a few strings instead of building an object and
 * `JSON.stringify`-ing it each time (BENCHMARKS.md, issue 21). Each hole
 * takes a JSON text (`JSON.stringify` of its value, or a text kept from
 * before), so the result is byte for byte what stringifying the whole gives.
 */
export class JsonTemplate<Holes extends ReadonlyArray<unknown>> {
  // The texts between the holes, and which parameter each hole takes.
  private readonly texts: ReadonlyArray<string>
  private readonly order: ReadonlyArray<number>

  constructor(texts: ReadonlyArray<string>, order: ReadonlyArray<number>) {
    this.texts = texts
    this.order = order
  }

  /** Given fewer texts than holes, the text up to the first hole left open, for the caller to go on. */
  fill(...json: Texts<Holes>): string {
    const { order, texts } = this
    let text = texts[0]!
    for (let i = 0; i < order.length; i++) {
      const value = json[order[i]!]
      if (value === undefined) return text
      text += value + texts[i + 1]!
    }
    return text
  }

  /**
   * The template with its first holes (the first in its text too) filled
   * once: what one item's events share. The text they share is one string,
   * not the pieces a fill joins: a stream's text is flattened before it is
   * written, at a cost for each of its pieces (BENCHMARKS.md).
   */
  with<First extends ReadonlyArray<string>>(...json: First): JsonTemplate<Drop<Holes, First>> {
    const { order, texts } = this
    const rest: Array<number> = []
    for (let i = json.length; i < order.length; i++) rest.push(order[i]! - json.length)
    if (rest.some((hole) => hole < 0)) throw new Error("not the template's first holes")
    const shared = [texts[0]]
    for (let i = 0; i < json.length; i++) shared.push(json[i], texts[i + 1])
    return new JsonTemplate([shared.join(""), ...texts.slice(json.length + 1)], rest)
  }
}

type Texts<Holes extends ReadonlyArray<unknown>> = { [K in keyof Holes]: string }
type Drop<Holes extends ReadonlyArray<unknown>, First extends ReadonlyArray<unknown>> = Holes extends
  readonly [...{ [K in keyof First]: unknown }, ...infer Rest] ? Rest : never

// Each hole is named by one digit.
const MAX_HOLES = 10
// A hole's value while the template is made: a string no shape of the code holds, as JSON.stringify writes it.
const HOLE = /"\\u0000(\d)"/
const holes = Array.from({ length: MAX_HOLES }, (_, index) => `\u0000${index}`)

/**
 * `shape`'s JSON text with a hole for each of its parameters, after
 * `before`: `jsonTemplate(shape).fill(JSON.stringify(a), JSON.stringify(b))` is
 * `JSON.stringify(shape(a, b))`. Only for shapes whose other values are the
 * code's own constants (a parameter may be used more than once, or not).
 * `open`: the object is left open after its last member, for the caller to
 * write more members and close it (a spread of the request's own values).
 */
export const jsonTemplate = <Holes extends ReadonlyArray<unknown>>(
  shape: (...holes: Holes) => unknown,
  { before = "", open = false }: { readonly before?: string; readonly open?: boolean } = {}
): JsonTemplate<Holes> => {
  const json = JSON.stringify(shape(...(holes as unknown as Holes)))
  const cut = (before + (open ? json.slice(0, -1) : json)).split(HOLE)
  return new JsonTemplate(cut.filter((_, i) => i % 2 === 0), cut.filter((_, i) => i % 2 === 1).map(Number))
}
