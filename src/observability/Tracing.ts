import type { SpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Context, Effect, Layer } from "effect"

/** Whether spans are made, and whether they may carry message content (`PARLEY_TRACE_CONTENT`). */
export interface TracingSettings {
  readonly enabled: boolean
  readonly content: boolean
}

/** Off unless the composition root turns it on (`tracingLayer`). */
export const Tracing = Context.Reference<TracingSettings>("parley/observability/Tracing", {
  defaultValue: () => ({ enabled: false, content: false })
})

export type SpanAttributes = Record<string, unknown>

/**
 * `self` in a span when traces are on; `self` untouched when they are off: a
 * span costs ~20 µs and the hot path makes none then (BENCHMARKS.md).
 * `attributes` is called only when the span is made.
 */
export const traced = <A, E, R>(
  tracing: TracingSettings,
  self: Effect.Effect<A, E, R>,
  name: string,
  attributes: () => SpanAttributes,
  kind: "server" | "client" | "internal" = "internal"
): Effect.Effect<A, E, R> => tracing.enabled ? Effect.withSpan(self, name, { attributes: attributes(), kind }) : self

/** Adds attributes to the current span, when traces are on. */
export const annotateSpan = (tracing: TracingSettings, attributes: () => SpanAttributes): Effect.Effect<void> =>
  tracing.enabled ? Effect.annotateCurrentSpan(attributes()) : Effect.void

/**
 * OTLP/HTTP traces (JSON) through `@effect/opentelemetry`: every `Effect.withSpan`
 * built under this layer becomes an OpenTelemetry span. The SDK reads the
 * standard `OTEL_*` variables itself (`OTEL_RESOURCE_ATTRIBUTES`,
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`, `OTEL_BSP_*`).
 * Tests pass their own span processor to see the spans in memory. The SDK is
 * loaded only when traces are on (it adds ~10 MiB to a process that has none).
 */
export const tracingLayer = (options: {
  readonly endpoint?: string | undefined
  readonly content: boolean
  readonly serviceName: string
  readonly serviceVersion: string
  readonly spanProcessor?: SpanProcessor | undefined
}) => {
  const { endpoint, spanProcessor } = options
  if (spanProcessor === undefined && endpoint === undefined) return Layer.empty
  const sdk = Effect.promise(async () => {
    const NodeSdk = await import("@effect/opentelemetry/NodeSdk")
    const processor = spanProcessor ?? await otlpProcessor(endpoint!)
    return NodeSdk.layer(() => ({
      spanProcessor: processor,
      resource: { serviceName: options.serviceName, serviceVersion: options.serviceVersion }
    }))
  })
  return Layer.merge(Layer.unwrap(sdk), Layer.succeed(Tracing, { enabled: true, content: options.content }))
}

const otlpProcessor = async (url: string): Promise<SpanProcessor> => {
  const [{ OTLPTraceExporter }, { BatchSpanProcessor }] = await Promise.all([
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/sdk-trace-base")
  ])
  return new BatchSpanProcessor(new OTLPTraceExporter({ url }))
}
