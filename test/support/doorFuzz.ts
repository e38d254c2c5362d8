import { assert, it } from "@effect/vitest"
import { type Arbitrary, Effect } from "effect"

/** What a client's mistake may answer on a standard door (a provider's failures aside). */
const DOCUMENTED = new Set([200, 400, 401, 403, 413])

export interface DoorFuzzCase {
  readonly path: string
  readonly text: string
  readonly valid: boolean
}

/**
 * The fuzzer of a standard door (docs/DESIGN.md §14): each case is posted as
 * it is; a valid body answers 200, anything else a documented 4xx whose JSON
 * body is the door's envelope (`errorOf` finds its `{message, type}`), never
 * a 500.
 */
export const fuzzDoor = (
  title: string,
  cases: Arbitrary.Arbitrary<DoorFuzzCase>,
  target: () => { readonly url: string; readonly headers: Record<string, string> },
  errorOf: (body: any) => { readonly message: unknown; readonly type: unknown }
) =>
  it.effect.prop(
    title,
    [cases],
    ([{ path, text, valid }]) =>
      Effect.gen(function*() {
        const { answer, status, type } = yield* Effect.promise(async () => {
          const { headers, url } = target()
          const response = await fetch(`${url}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: text
          })
          return { status: response.status, type: response.headers.get("content-type"), answer: await response.text() }
        })
        const context = `${status} ${answer.slice(0, 300)}\nfor ${path} ${text.slice(0, 600)}`
        assert.isTrue(DOCUMENTED.has(status), context)
        if (valid) assert.strictEqual(status, 200, context)
        if (status !== 200 && type?.includes("json") === true) {
          const error = errorOf(JSON.parse(answer))
          assert.strictEqual(typeof error.message, "string", context)
          assert.strictEqual(typeof error.type, "string", context)
        }
      }),
    { timeout: 120_000, arbitrary: { runs: 400 } }
  )
