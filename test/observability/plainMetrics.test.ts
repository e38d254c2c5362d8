import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Counter, Gauge, Histogram, Registry } from "prom-client"
import { PlainCounter, PlainGauge, PlainHistogram } from "../../src/observability/plainMetrics.ts"

const BOUNDS = [0.005, 0.1, 1, 30]
const label = Schema.Literals(["a", "b", "c\"\\\n"])
const amount = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 100 }))
const observation = Schema.Tuple([label, label, amount])

/** What prom-client's own counter, gauge and histogram render after `seen`, and what the plain ones render. */
const rendered = async (seen: ReadonlyArray<readonly [string, string, number]>) => {
  const own = new Registry()
  const plain = new Registry()
  const counter = new Counter({ name: "c_total", help: "c", labelNames: ["x", "y"], registers: [own] })
  const gauge = new Gauge({ name: "g", help: "g", labelNames: ["x"], registers: [own] })
  const histogram = new Histogram({ name: "h", help: "h", labelNames: ["x", "y"], buckets: BOUNDS, registers: [own] })
  const plainCounter = new PlainCounter("c_total", "c", ["x", "y"], plain)
  const plainGauge = new PlainGauge("g", "g", ["x"], plain)
  const plainHistogram = new PlainHistogram("h", "h", ["x", "y"], BOUNDS, plain)
  for (const [x, y, value] of seen) {
    counter.labels(x, y).inc(value)
    plainCounter.labels(x, y).inc(value)
    gauge.labels(x).inc(y === "a" ? -value : value)
    plainGauge.labels(x).inc(y === "a" ? -value : value)
    histogram.labels(x, y).observe(value)
    plainHistogram.labels(x, y).observe(value)
  }
  return { own: await own.metrics(), plain: await plain.metrics() }
}

describe("plain metrics", () => {
  it.effect.prop(
    "render the text prom-client's counter, gauge and histogram render for the same observations",
    [Schema.Array(observation)],
    ([seen]) =>
      Effect.promise(() => rendered(seen)).pipe(Effect.map(({ own, plain }) => assert.strictEqual(plain, own)))
  )

  it.effect("leave out a label whose value is empty, as prom-client leaves out one not given", () =>
    Effect.promise(async () => {
      const own = new Registry()
      const plain = new Registry()
      const counter = new Counter({ name: "c_total", help: "c", labelNames: ["x", "y"], registers: [own] })
      const histogram = new Histogram({
        name: "h",
        help: "h",
        labelNames: ["x", "y"],
        buckets: BOUNDS,
        registers: [own]
      })
      const plainCounter = new PlainCounter("c_total", "c", ["x", "y"], plain)
      const plainHistogram = new PlainHistogram("h", "h", ["x", "y"], BOUNDS, plain)
      counter.inc({ x: "a" })
      counter.inc({ x: "a", y: "b" }, 2)
      histogram.observe({ x: "a" }, 0.5)
      plainCounter.labels("a", "").inc()
      plainCounter.labels("a", "b").inc(2)
      plainHistogram.labels("a", "").observe(0.5)
      const text = await plain.metrics()
      assert.strictEqual(text, await own.metrics())
      assert.include(text, `c_total{x="a"} 1`)
    }))
})
