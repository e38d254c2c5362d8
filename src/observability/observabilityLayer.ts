import type { SpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Layer } from "effect"
import type { ObservabilityConfig } from "../config/ObservabilityConfig.ts"
import { makeGatewayMetrics, Metrics } from "./GatewayMetrics.ts"
import { loggingLayer, type LogSink } from "./Logging.ts"
import { tracingLayer } from "./Tracing.ts"

/** Where a gateway's logs and spans go when not where the configuration says: tests capture both. */
export interface ObservabilityTaps {
  /** Every log line, JSON, at `info` and above; given, logs are written even when the gateway is quiet. */
  readonly logSink?: LogSink | undefined
  /** Spans go here instead of the OTLP endpoint (with `tracesEndpoint` unset too). */
  readonly spanProcessor?: SpanProcessor | undefined
}

/**
 * Logs, metrics and traces for one gateway (docs/DESIGN.md §8), built before
 * the services and the server so everything they run logs, counts and traces
 * through them. A quiet gateway (tests, the demo) writes only warnings and errors unless tapped.
 */
export const observabilityLayer = (
  config: ObservabilityConfig,
  options: { readonly quiet: boolean; readonly version: string; readonly taps?: ObservabilityTaps | undefined }
) =>
  Layer.mergeAll(
    options.taps?.logSink !== undefined
      ? loggingLayer({ level: "info", format: "json", sink: options.taps.logSink })
      : options.quiet
      ? loggingLayer("quiet")
      : loggingLayer({ level: config.logLevel, format: config.logFormat }),
    Layer.sync(Metrics, makeGatewayMetrics),
    tracingLayer({
      endpoint: config.tracesEndpoint,
      content: config.traceContent,
      serviceName: config.serviceName,
      serviceVersion: options.version,
      spanProcessor: options.taps?.spanProcessor
    })
  )
