import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { eventsAfter } from "../../../src/protocols/responses/background.ts"

const Deltas = Schema.Array(Schema.String)
const Cuts = Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 40 })))
const After = Schema.Int.check(Schema.isBetween({ minimum: -1, maximum: 45 }))

// Events as the Responses stream writes them (./encode.ts): each ends with its sequence number.
const eventOf = (delta: string, sequence: number) =>
  `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":${
    JSON.stringify(delta)
  },"sequence_number":${sequence}}\n\n`

describe("a kept stream's events after a sequence number (issue 23 part 5)", () => {
  it.effect.prop(
    "however the events are cut into kept chunks, the events after N are exactly those numbered past N",
    [Deltas, Cuts, After],
    ([deltas, cuts, after]) =>
      Effect.sync(() => {
        const events = deltas.map(eventOf)
        // Chunks hold whole events (the writer adds whole texts), cut anywhere between them.
        const chunks: Array<string> = []
        let start = 0
        for (const cut of [...new Set(cuts)].filter((cut) => cut < events.length).sort((a, b) => a - b)) {
          chunks.push(events.slice(start, cut).join(""))
          start = cut
        }
        chunks.push(events.slice(start).join(""))
        const select = eventsAfter(after)
        assert.strictEqual(chunks.map(select).join(""), events.slice(Math.max(0, after + 1)).join(""))
      })
  )
})
