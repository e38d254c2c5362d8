import { it } from "@effect/vitest"
import { type Arbitrary, Effect } from "effect"
import { checkAnswer, type DoorCase, type ErrorOf, expectHealthy, HEALTH_EVERY } from "./fuzz/answerCheck.ts"

/** Posts one case as it is, the key's headers added; resolves to what came back. */
export const postDoorCase = async (url: string, keyHeaders: Record<string, string>, fuzzCase: DoorCase) => {
  const response = await fetch(`${url}${fuzzCase.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...keyHeaders, ...fuzzCase.headers },
    body: fuzzCase.text
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/**
 * The fuzzer of a standard door (docs/DESIGN.md §14; issue 32 part 3): each
 * case is posted as it is and its answer held to `checkAnswer` (a valid body
 * 200, an invalid one never a 2xx, the door's envelope, headers of safe
 * tokens, never a 5xx), and after every `HEALTH_EVERY` cases the gateway
 * must still answer `/health`.
 */
export const fuzzDoor = (
  title: string,
  cases: Arbitrary.Arbitrary<DoorCase>,
  target: () => { readonly url: string; readonly headers: Record<string, string> },
  errorOf: ErrorOf
) => {
  let posted = 0
  it.effect.prop(
    title,
    [cases],
    ([fuzzCase]) =>
      Effect.promise(async () => {
        const { headers, url } = target()
        checkAnswer(fuzzCase, await postDoorCase(url, headers, fuzzCase), errorOf)
        if (++posted % HEALTH_EVERY === 0) await expectHealthy(url)
      }),
    { timeout: 120_000, arbitrary: { runs: 400 } }
  )
}
