import type { Metric, Registry } from "prom-client"

/**
 * Counters, gauges and histograms whose labelled children are plain numbers,
 * rendered by a prom-client registry like its own. prom-client's children
 * turn their labels into a key and check them on every call (~0.4 µs an
 * increment, ~0.6 µs an observation, several a request); these add to a
 * field. The registry reads them through `get()`, in the shape prom-client's
 * own metrics give, so the text is the same.
 */
type Labels = Readonly<Record<string, string>>

interface Value {
  readonly labels: Labels
  readonly value: number
  readonly metricName?: string
  readonly sharedLabels?: Labels
}

// A family's children by label values: made once per label set, so the label sets must stay few (GatewayMetrics.ts).
abstract class Family<C> {
  readonly #children = new Map<string, C>()
  readonly aggregator = "sum"
  abstract readonly type: string
  readonly name: string
  readonly help: string
  readonly labelNames: ReadonlyArray<string>

  constructor(name: string, help: string, labelNames: ReadonlyArray<string>, registry: Registry) {
    this.name = name
    this.help = help
    this.labelNames = labelNames
    // The registry asks only for name, help, type, aggregator and get(); its types name prom-client's classes.
    registry.registerMetric(this as unknown as Metric)
  }

  protected abstract make(labels: Labels): C
  protected abstract values(child: C): ReadonlyArray<Value>

  /** The child of `values`, in the order of `labelNames`; an empty value is a label left out. */
  labels(...values: ReadonlyArray<string>): C {
    const key = values.length === 1 ? values[0]! : values.join("\u0000")
    let child = this.#children.get(key)
    if (child === undefined) {
      // An empty value leaves its label out, as Prometheus reads an absent label: `protocol` on a route that has none.
      const labels = Object.fromEntries(
        this.labelNames.flatMap((name, i) => values[i] === "" ? [] : [[name, values[i]!]])
      )
      this.#children.set(key, child = this.make(labels))
    }
    return child
  }

  get() {
    const values = Array.from(this.#children.values()).flatMap((child) => this.values(child))
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values })
  }
}

/** A child's number, raised (a counter) or moved either way (a gauge). */
export class Tally {
  value = 0
  readonly labels: Labels
  constructor(labels: Labels) {
    this.labels = labels
  }
  inc(by = 1): void {
    this.value += by
  }
}

export class PlainCounter extends Family<Tally> {
  readonly type: string = "counter"
  protected make(labels: Labels) {
    return new Tally(labels)
  }
  protected values(child: Tally) {
    return [{ labels: child.labels, value: child.value }]
  }
}

export class PlainGauge extends PlainCounter {
  override readonly type = "gauge"
}

export class Buckets {
  readonly labels: Labels
  readonly bounds: ReadonlyArray<number>
  readonly counts: Float64Array
  sum = 0
  count = 0
  constructor(labels: Labels, bounds: ReadonlyArray<number>) {
    this.labels = labels
    this.bounds = bounds
    this.counts = new Float64Array(bounds.length)
  }
  observe(value: number): void {
    const bounds = this.bounds
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++
        break
      }
    }
    this.sum += value
    this.count++
  }
}

export class PlainHistogram extends Family<Buckets> {
  readonly type = "histogram"
  readonly #bounds: ReadonlyArray<number>

  constructor(
    name: string,
    help: string,
    labelNames: ReadonlyArray<string>,
    bounds: ReadonlyArray<number>,
    registry: Registry
  ) {
    super(name, help, labelNames, registry)
    this.#bounds = bounds
  }

  protected make(labels: Labels) {
    return new Buckets(labels, this.#bounds)
  }

  // As prom-client writes a histogram: cumulative buckets with `le` first, then +Inf, sum and count.
  protected values(child: Buckets) {
    const bucket = `${this.name}_bucket`
    let below = 0
    const values: Array<Value> = this.#bounds.map((le, i) => ({
      labels: { le: String(le) },
      sharedLabels: child.labels,
      value: below += child.counts[i]!,
      metricName: bucket
    }))
    values.push(
      { labels: { le: "+Inf" }, sharedLabels: child.labels, value: child.count, metricName: bucket },
      { labels: {}, sharedLabels: child.labels, value: child.sum, metricName: `${this.name}_sum` },
      { labels: {}, sharedLabels: child.labels, value: child.count, metricName: `${this.name}_count` }
    )
    return values
  }
}
