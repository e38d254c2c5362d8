import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { OutputCapture } from "../../src/sandbox/OutputCapture.ts"

// Strings stand for byte chunks (UTF-8: multi-byte characters split across chunk and limit borders too).
const chunks = Schema.Array(Schema.String)
const limit = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 }))

describe("OutputCapture", () => {
  it.effect.prop(
    "keeps exactly the head and the tail of the stream, whatever the chunking",
    [chunks, limit, limit],
    ([parts, head, tail]) =>
      Effect.sync(() => {
        const capture = new OutputCapture(head, tail)
        for (const part of parts) capture.push(Buffer.from(part))
        const all = Buffer.concat(parts.map((part) => Buffer.from(part)))
        const kept = all.length <= head + tail
          ? all
          : Buffer.concat([all.subarray(0, head), all.subarray(all.length - tail)])
        assert.deepStrictEqual(capture.bytes(), kept)
        assert.strictEqual(capture.total, all.length)
        assert.strictEqual(capture.truncated, all.length > head + tail)
      })
  )

  it("marks what was dropped between head and tail", () => {
    const capture = new OutputCapture(4, 3)
    capture.push(Buffer.from("start-middle-"))
    capture.push(Buffer.from("end"))
    assert.strictEqual(capture.text(), "star\n[… 9 bytes omitted …]\nend")
    const whole = new OutputCapture(4, 3)
    whole.push(Buffer.from("short"))
    assert.strictEqual(whole.text(), "short")
    assert.isFalse(whole.truncated)
  })
})
