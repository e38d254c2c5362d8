import { Config, Effect, Option, type Redacted, Schema } from "effect"
import { optionalSecret } from "./optionalSecret.ts"

export type LogLevelName = "debug" | "info" | "warn" | "error"
export type LogFormat = "json" | "pretty"

/** Logs, metrics and traces as the environment sets them (docs/DESIGN.md §8). */
export interface ObservabilityConfig {
  /** `LOG_LEVEL`: the least severe level written (default `info`). */
  readonly logLevel: LogLevelName
  /** `LOG_FORMAT`: `pretty` on a terminal, else `json` (one object per line). */
  readonly logFormat: LogFormat
  /** `PARLEY_METRICS_TOKEN`: the bearer token `/metrics` asks for. */
  readonly metricsToken?: Redacted.Redacted<string> | undefined
  /** `PARLEY_METRICS_PUBLIC=true`: `/metrics` answers without a token. */
  readonly metricsPublic: boolean
  /**
   * Where OTLP/HTTP traces go: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, else
   * `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. Unset (or `OTEL_SDK_DISABLED=true`): no spans at all.
   */
  readonly tracesEndpoint?: string | undefined
  /** `OTEL_SERVICE_NAME` (default `parley`): the traces' `service.name`. */
  readonly serviceName: string
  /** `PARLEY_TRACE_CONTENT=true`: spans carry messages and tool arguments and results. */
  readonly traceContent: boolean
}

/** For tests and the demo: nothing written below `info`, JSON, `/metrics` closed, no traces. */
export const defaultObservability: ObservabilityConfig = {
  logLevel: "info",
  logFormat: "json",
  metricsPublic: false,
  serviceName: "parley",
  traceContent: false
}

const blankAsUnset = (name: string) =>
  Config.option(Config.String(name)).pipe(
    Config.map((value) => Option.getOrUndefined(Option.filter(Option.map(value, (text) => text.trim()), Boolean)))
  )

const tracesEndpoint = Effect.gen(function*() {
  if (yield* Config.Boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false))) return undefined
  const traces = yield* blankAsUnset("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
  if (traces !== undefined) return traces
  const base = yield* blankAsUnset("OTEL_EXPORTER_OTLP_ENDPOINT")
  return base === undefined ? undefined : `${base.replace(/\/+$/, "")}/v1/traces`
})

export const observabilityConfig = Effect.gen(function*() {
  const logLevel = yield* Config.schema(Schema.Literals(["debug", "info", "warn", "error"]), "LOG_LEVEL").pipe(
    Config.withDefault("info" as const)
  )
  const logFormat = yield* Config.option(Config.schema(Schema.Literals(["json", "pretty"]), "LOG_FORMAT"))
  return {
    logLevel,
    logFormat: Option.getOrElse(logFormat, () => process.stdout.isTTY === true ? "pretty" as const : "json" as const),
    metricsToken: yield* optionalSecret("PARLEY_METRICS_TOKEN"),
    metricsPublic: yield* Config.Boolean("PARLEY_METRICS_PUBLIC").pipe(Config.withDefault(false)),
    tracesEndpoint: yield* tracesEndpoint,
    serviceName: (yield* blankAsUnset("OTEL_SERVICE_NAME")) ?? "parley",
    traceContent: yield* Config.Boolean("PARLEY_TRACE_CONTENT").pipe(Config.withDefault(false))
  } satisfies ObservabilityConfig
})
