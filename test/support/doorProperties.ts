import { assert, it } from "@effect/vitest"
import { Arbitrary, Effect, Exit, Schema } from "effect"
import { InvalidRequest } from "../../src/domain/requestErrors.ts"
import type { Expected } from "./fuzz/answerCheck.ts"

type Decode = (body: unknown) => Effect.Effect<unknown, InvalidRequest>

/** Decoding never dies: it succeeds, or fails with an InvalidRequest with issues. */
export const decodesOrRejects = (decode: Decode) => (value: unknown) =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(decode(value))
    if (Exit.isFailure(exit)) {
      const error = yield* Effect.flip(exit)
      assert.instanceOf(error, InvalidRequest)
      assert.isTrue(error.issues.length > 0)
    }
    return exit
  })

/**
 * The properties every standard door's decoder has (docs/DESIGN.md §14),
 * over valid bodies of its format: a field set to anything decodes or is
 * named, an unknown field is named, any JSON decodes or is refused.
 */
export const doorDecoderProperties = (
  decode: Decode,
  validBodies: Arbitrary.Arbitrary<Record<string, unknown>>,
  knownFields: ReadonlyArray<string>
) => {
  const check = decodesOrRejects(decode)
  it.effect.prop(
    "a valid body with one field set to anything decodes or answers 400 naming that field",
    [validBodies, Arbitrary.schema(Schema.Literals(knownFields)), Arbitrary.schema(Schema.Json)],
    ([value, field, wrong]) =>
      Effect.gen(function*() {
        const exit = yield* check({ ...value, [field]: wrong })
        if (Exit.isSuccess(exit)) return
        const error = yield* Effect.flip(exit)
        const names = (issue: string) =>
          issue.startsWith(`"${field}`) || (field === "model" && issue.startsWith("Invalid model format"))
        assert.isTrue(error.issues.some(names), error.issues.join("; "))
      })
  )

  it.effect.prop(
    "a field the format does not document answers 400 naming it",
    [validBodies, Arbitrary.schema(Schema.String.check(Schema.isPattern(/^x_[a-z]{1,10}$/)))],
    ([value, field]) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(decode({ ...value, [field]: 1 }))
        assert.include(error.issues[0], `"${field}" is not a known field`)
      })
  )

  it.effect.prop(
    "any JSON value decodes or is an InvalidRequest, never a defect",
    [Arbitrary.schema(Schema.Json)],
    ([json]) => Effect.asVoid(check(json))
  )
}

/**
 * A valid body (`ok`), the same with one field set to any JSON (`either`:
 * it may still be valid), any JSON at all, or the valid body's text cut
 * short (`refused`: neither is a body of the door).
 */
export const fuzzedBodies = (
  validBodies: Arbitrary.Arbitrary<Record<string, unknown>>,
  fields: ReadonlyArray<string>
): Arbitrary.Arbitrary<{ readonly text: string; readonly expected: Expected }> =>
  Arbitrary.all({
    body: validBodies.pipe(Arbitrary.map((body) => ({ ...body, model: "test/m1" }))),
    kind: Arbitrary.schema(Schema.Literals(["valid", "field", "json", "cut"])),
    field: Arbitrary.schema(Schema.Literals(fields)),
    json: Arbitrary.schema(Schema.Json),
    cut: Arbitrary.schema(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 })))
  }).pipe(Arbitrary.map(({ body, cut, field, json, kind }) => {
    const text = JSON.stringify(body)
    switch (kind) {
      case "valid":
        return { text, expected: "ok" as const }
      case "field":
        return { text: JSON.stringify({ ...body, [field]: json }), expected: "either" as const }
      case "json":
        return { text: JSON.stringify(json), expected: "refused" as const }
      case "cut":
        return { text: text.slice(0, Math.floor(cut * (text.length - 1))), expected: "refused" as const }
    }
  }))
