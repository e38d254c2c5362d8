import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { loggingLayer } from "../../src/observability/Logging.ts"
import { isoTime } from "../../src/observability/logTime.ts"
import { RequestLog } from "../../src/observability/RequestLog.ts"

const text = Schema.String
const count = Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10_000_000 })))
const orNull = Schema.NullOr(Schema.String)
const status = Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 599 }))
// From 1970 to the year 9999: every time a log line can carry.
const epochMs = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 253_402_300_799_999 }))

/** The line Effect's JSON logger writes for `log` under the correlation id, as the observer logged it before. */
const loggedLine = (log: RequestLog) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    yield* Effect.logInfo("request", log).pipe(
      Effect.annotateLogs("correlationId", log.correlationId),
      Effect.provide(loggingLayer({ level: "info", format: "json", sink: (line) => void lines.push(line) }))
    )
    return lines[0]!
  })

const withoutTime = (line: string) => line.replace(/^\{"time":"[^"]*",/, "")

describe("RequestLog.jsonLine", () => {
  it.effect.prop(
    "is the line Effect's JSON logger writes for the record, whatever its fields hold",
    [text, text, text, status, orNull, orNull, orNull, count, count, orNull],
    ([id, method, url, code, keyId, accountId, model, input, output, outcome]) =>
      Effect.gen(function*() {
        const log = new RequestLog(id, method, url)
        Object.assign(log, { keyId, accountId, model, inputTokens: input, outputTokens: output, outcome })
        log.end(code)
        const direct = log.jsonLine(Date.now())
        assert.strictEqual(withoutTime(direct), withoutTime(yield* loggedLine(log)))
        assert.deepStrictEqual(Object.keys(JSON.parse(direct)).slice(0, 4), ["time", "level", "msg", "correlationId"])
      })
  )

  it.effect.prop(
    "isoTime writes a time as Date.prototype.toISOString does",
    [epochMs, epochMs],
    ([a, b]) =>
      Effect.sync(() => {
        // In turn, so that the cached second is both hit and replaced.
        for (const time of [a, a + 1, b, a]) assert.strictEqual(isoTime(time), new Date(time).toISOString())
      })
  )
})
