import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Schema } from "effect"
import { loggingLayer } from "../../src/observability/Logging.ts"

// What parley itself writes: the colour of the level.
const COLOUR = /\p{Cc}\[\d+m/gu
const INVISIBLE = /[\p{Cc}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u

const pretty = (effect: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    yield* effect.pipe(
      Effect.provide(loggingLayer({ level: "info", format: "pretty", sink: (line) => void lines.push(line) }))
    )
    return lines
  })

describe("pretty logs show a request's text, never act on it (docs/DESIGN.md §3.24)", () => {
  it.effect("escapes CR, LF, NUL, ESC, C1 controls and bidi marks in the message, the fields and the cause", () =>
    Effect.gen(function*() {
      const hostile = "a\r\nINFO forged\u0000\u001b[2J\u009b\u202eevil\u2028"
      const [line] = yield* pretty(
        Effect.logError(`msg ${hostile}`, { path: hostile, [hostile]: 1 }, Cause.fail(new Error(hostile)))
      )
      const [head, ...cause] = line!.split("\n")
      assert.notMatch(head!.replace(COLOUR, ""), INVISIBLE)
      assert.include(head, "path=a\\u000d\\u000aINFO forged\\u0000\\u001b[2J\\u009b\\u202eevil\\u2028")
      for (const rest of cause) assert.notMatch(rest, INVISIBLE)
      assert.include(cause.join("\n"), "\\u202eevil")
    }))

  it.effect.prop(
    "writes any field as one line without control or bidi characters",
    [Schema.String, Schema.String],
    ([message, value]) =>
      Effect.gen(function*() {
        const lines = yield* pretty(Effect.logInfo(message, { value }))
        assert.strictEqual(lines.length, 1)
        assert.notInclude(lines[0]!, "\n")
        assert.notMatch(lines[0]!.replace(COLOUR, ""), INVISIBLE)
      })
  )
})
