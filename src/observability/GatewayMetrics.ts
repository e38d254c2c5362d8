import { Context } from "effect"
import { Counter, Gauge, Histogram, Registry } from "prom-client"
import { processMetrics } from "./processMetrics.ts"

export type ChatMode = "stream" | "json"

/** Token counts of one model call, as the provider reported them. */
export interface CallTokens {
  readonly input?: number | undefined
  readonly output?: number | undefined
}

/**
 * The gateway's metrics (docs/DESIGN.md §8). Each hook is a plain increment or
 * observation on a labelled child kept in a map: no key ids and no raw paths as
 * labels, so the label sets stay small (models and tools come from the catalog
 * and the registry, routes from `routeLabel`).
 */
export interface GatewayMetrics {
  readonly request: (route: string, status: number, seconds: number) => void
  readonly chatActive: (mode: ChatMode, delta: 1 | -1) => void
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
  /** The sandboxes by state, set just before a scrape renders. */
  readonly sandboxes: (counts: Readonly<Record<string, number>>) => void
  /** Prometheus text exposition: the process's metrics, then the gateway's. */
  readonly render: () => Promise<string>
}

export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

// prom-client hashes the label values on every call; a child per label set, kept here, is one map lookup.
const children = <C>(make: (...values: Array<string>) => C) => {
  const made = new Map<string, C>()
  return (...values: Array<string>): C => {
    const key = values.join("\u0000")
    let child = made.get(key)
    if (child === undefined) made.set(key, child = make(...values))
    return child
  }
}

/** A fresh registry with the gateway's metrics (one per gateway, so tests see only their own). */
export const makeGatewayMetrics = (): GatewayMetrics => {
  const registers = [new Registry()]
  const requests = new Counter({
    name: "parley_http_requests_total",
    help: "HTTP requests answered, by route and status",
    labelNames: ["route", "status"],
    registers
  })
  const duration = new Histogram({
    name: "parley_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer (a stream's last chunk), by route",
    labelNames: ["route"],
    buckets: SECONDS_BUCKETS,
    registers
  })
  const active = new Gauge({
    name: "parley_chat_active",
    help: "Chat requests running, streamed or answered in one piece",
    labelNames: ["mode"],
    registers
  })
  const modelCalls = new Counter({
    name: "parley_model_calls_total",
    help: "Model call attempts (each retry counts), by provider, model and outcome",
    labelNames: ["provider", "model", "outcome"],
    registers
  })
  const tokens = new Counter({
    name: "parley_model_tokens_total",
    help: "Tokens the providers reported, by provider, model and type (input, output)",
    labelNames: ["provider", "model", "type"],
    registers
  })
  const firstToken = new Histogram({
    name: "parley_model_time_to_first_token_seconds",
    help: "Time from sending a model call to the first part of its answer",
    labelNames: ["provider", "model"],
    buckets: SECONDS_BUCKETS,
    registers
  })
  const toolCalls = new Counter({
    name: "parley_tool_calls_total",
    help: "Tool calls run, by tool and outcome",
    labelNames: ["tool", "outcome"],
    registers
  })
  const toolDuration = new Histogram({
    name: "parley_tool_duration_seconds",
    help: "Time a tool call ran, by tool",
    labelNames: ["tool"],
    buckets: SECONDS_BUCKETS,
    registers
  })
  const refusals = new Counter({
    name: "parley_limit_refusals_total",
    help: "Requests refused by a key's or account's limit, by limit and scope (key, account)",
    labelNames: ["limit", "scope"],
    registers
  })
  const sandboxes = new Gauge({
    name: "parley_sandboxes",
    help: "Sandboxes this instance holds, by state",
    labelNames: ["state"],
    registers
  })

  const requestsOf = children((route, status) => requests.labels(route!, status!))
  const durationOf = children((route) => duration.labels(route!))
  const activeOf = children((mode) => active.labels(mode!))
  const modelCallsOf = children((provider, model, outcome) => modelCalls.labels(provider!, model!, outcome!))
  const tokensOf = children((provider, model, type) => tokens.labels(provider!, model!, type!))
  const firstTokenOf = children((provider, model) => firstToken.labels(provider!, model!))
  const toolCallsOf = children((tool, outcome) => toolCalls.labels(tool!, outcome!))
  const toolDurationOf = children((tool) => toolDuration.labels(tool!))
  const refusalsOf = children((limit, scope) => refusals.labels(limit!, scope!))

  return {
    request: (route, status, seconds) => {
      requestsOf(route, String(status)).inc()
      durationOf(route).observe(seconds)
    },
    chatActive: (mode, delta) => activeOf(mode).inc(delta),
    modelCall: (provider, model, outcome, counts, firstTokenSeconds) => {
      modelCallsOf(provider, model, outcome).inc()
      if (counts?.input !== undefined) tokensOf(provider, model, "input").inc(counts.input)
      if (counts?.output !== undefined) tokensOf(provider, model, "output").inc(counts.output)
      if (firstTokenSeconds !== undefined) firstTokenOf(provider, model).observe(firstTokenSeconds)
    },
    toolCall: (tool, outcome, seconds) => {
      toolCallsOf(tool, outcome).inc()
      toolDurationOf(tool).observe(seconds)
    },
    limitRefusal: (limit, scope) => refusalsOf(limit, scope).inc(),
    sandboxes: (counts) => {
      sandboxes.reset()
      for (const [state, count] of Object.entries(counts)) sandboxes.set({ state }, count)
    },
    render: async () => `${await processMetrics().metrics()}\n${await registers[0]!.metrics()}`
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
  sandboxes: ignore,
  render: () => Promise.resolve("")
}

/** The running gateway's metrics; the composition root sets them (`app/services.ts`). */
export const Metrics = Context.Reference<GatewayMetrics>("parley/observability/Metrics", {
  defaultValue: () => noMetrics
})
