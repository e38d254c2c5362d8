import { Context } from "effect"
import { Gauge, Registry } from "prom-client"
import type { Protocol } from "../domain/protocols.ts"
import { PlainCounter, PlainGauge, PlainHistogram } from "./plainMetrics.ts"
import { processMetrics } from "./processMetrics.ts"

export type ChatMode = "stream" | "json"

/** Token counts of one model call, as the provider reported them. */
export interface CallTokens {
  readonly input?: number | undefined
  readonly output?: number | undefined
}

/**
 * The gateway's metrics (docs/DESIGN.md §8). Each hook is a plain increment or
 * observation on a labelled child kept by its family (`plainMetrics.ts`): no key ids and no raw paths as
 * labels, so the label sets stay small (models and tools come from the catalog
 * and the registry, routes from `routeLabel`).
 */
export interface GatewayMetrics {
  /** `protocol`: the route's (docs/DESIGN.md §14), none for a route that is no protocol's. */
  readonly request: (route: string, status: number, seconds: number, protocol: Protocol | undefined) => void
  readonly chatActive: (mode: ChatMode, delta: 1 | -1, protocol: Protocol | undefined) => void
  /** One attempt of a model call: `outcome` is `ok` or the failure's tag. */
  readonly modelCall: (
    provider: string,
    model: string,
    outcome: string,
    tokens: CallTokens | undefined,
    firstTokenSeconds: number | undefined
  ) => void
  readonly toolCall: (tool: string, outcome: "ok" | "error", seconds: number) => void
  /** A request refused by one of its key's or account's limits (docs/DESIGN.md §11). */
  readonly limitRefusal: (limit: string, scope: string) => void
  /** Writing one answer threw (docs/DESIGN.md §3.25): at its head, a chunk or its end. */
  readonly responseWriteFailure: (protocol: Protocol, stage: "head" | "chunk" | "end") => void
  /** The sandboxes by state, set just before a scrape renders. */
  readonly sandboxes: (counts: Readonly<Record<string, number>>) => void
  /** Seconds each route target's provider is still skipped (0: it is not), set just before a scrape renders. */
  readonly cooldowns: (secondsLeft: ReadonlyMap<string, number>) => void
  /** Prometheus text exposition: the process's metrics, then the gateway's. */
  readonly render: () => Promise<string>
}

export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

/** A fresh registry with the gateway's metrics (one per gateway, so tests see only their own). */
export const makeGatewayMetrics = (): GatewayMetrics => {
  const registry = new Registry()
  const requests = new PlainCounter(
    "parley_http_requests_total",
    "HTTP requests answered, by route, status and protocol (none for a route that is no protocol's)",
    ["route", "status", "protocol"],
    registry
  )
  const duration = new PlainHistogram(
    "parley_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer (a stream's last chunk), by route and protocol",
    ["route", "protocol"],
    SECONDS_BUCKETS,
    registry
  )
  const active = new PlainGauge(
    "parley_chat_active",
    "Chat requests running, streamed or answered in one piece, by mode and protocol",
    ["mode", "protocol"],
    registry
  )
  const modelCalls = new PlainCounter(
    "parley_model_calls_total",
    "Model call attempts (each retry counts), by provider, model and outcome",
    ["provider", "model", "outcome"],
    registry
  )
  const tokens = new PlainCounter(
    "parley_model_tokens_total",
    "Tokens the providers reported, by provider, model and type (input, output)",
    ["provider", "model", "type"],
    registry
  )
  const firstToken = new PlainHistogram(
    "parley_model_time_to_first_token_seconds",
    "Time from sending a model call to the first part of its answer",
    ["provider", "model"],
    SECONDS_BUCKETS,
    registry
  )
  const toolCalls = new PlainCounter(
    "parley_tool_calls_total",
    "Tool calls run, by tool and outcome",
    ["tool", "outcome"],
    registry
  )
  const toolDuration = new PlainHistogram(
    "parley_tool_duration_seconds",
    "Time a tool call ran, by tool",
    ["tool"],
    SECONDS_BUCKETS,
    registry
  )
  // Set once a scrape, so prom-client's own gauge.
  const refusals = new PlainCounter(
    "parley_limit_refusals_total",
    "Requests refused by a key's or account's limit, by limit and scope (key, account)",
    ["limit", "scope"],
    registry
  )
  const writeFailures = new PlainCounter(
    "parley_response_write_failures_total",
    "Answers whose writing threw (that answer ended, its run interrupted), by protocol and stage (head, chunk, end)",
    ["protocol", "stage"],
    registry
  )
  const sandboxes = new Gauge({
    name: "parley_sandboxes",
    help: "Sandboxes this instance holds, by state",
    labelNames: ["state"],
    registers: [registry]
  })

  const cooldowns = new Gauge({
    name: "parley_provider_cooldown",
    help: "Seconds a route's provider is still skipped after failing (docs/DESIGN.md §15), as every instance sees it",
    labelNames: ["provider"],
    registers: [registry]
  })

  return {
    // No protocol: the label is left out (an empty value, `plainMetrics.ts`).
    request: (route, status, seconds, protocol) => {
      requests.labels(route, String(status), protocol ?? "").inc()
      duration.labels(route, protocol ?? "").observe(seconds)
    },
    chatActive: (mode, delta, protocol) => active.labels(mode, protocol ?? "").inc(delta),
    modelCall: (provider, model, outcome, counts, firstTokenSeconds) => {
      modelCalls.labels(provider, model, outcome).inc()
      if (counts?.input !== undefined) tokens.labels(provider, model, "input").inc(counts.input)
      if (counts?.output !== undefined) tokens.labels(provider, model, "output").inc(counts.output)
      if (firstTokenSeconds !== undefined) firstToken.labels(provider, model).observe(firstTokenSeconds)
    },
    toolCall: (tool, outcome, seconds) => {
      toolCalls.labels(tool, outcome).inc()
      toolDuration.labels(tool).observe(seconds)
    },
    limitRefusal: (limit, scope) => refusals.labels(limit, scope).inc(),
    responseWriteFailure: (protocol, stage) => writeFailures.labels(protocol, stage).inc(),
    sandboxes: (counts) => {
      sandboxes.reset()
      for (const [state, count] of Object.entries(counts)) sandboxes.set({ state }, count)
    },
    cooldowns: (secondsLeft) => {
      cooldowns.reset()
      for (const [provider, seconds] of secondsLeft) cooldowns.set({ provider }, seconds)
    },
    render: async () => `${await processMetrics().metrics()}\n${await registry.metrics()}`
  }
}

const ignore = () => undefined

/** No metrics: what code run outside a gateway (unit tests, the CLI) reports to. */
export const noMetrics: GatewayMetrics = {
  request: ignore,
  chatActive: ignore,
  modelCall: ignore,
  toolCall: ignore,
  limitRefusal: ignore,
  responseWriteFailure: ignore,
  sandboxes: ignore,
  cooldowns: ignore,
  render: () => Promise.resolve("")
}

/** The running gateway's metrics; the composition root sets them (`app/services.ts`). */
export const Metrics = Context.Reference<GatewayMetrics>("parley/observability/Metrics", {
  defaultValue: () => noMetrics
})
