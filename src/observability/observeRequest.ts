import { Cause, Effect, type Exit } from "effect"
import { Metrics } from "./GatewayMetrics.ts"
import { JsonInfoSink } from "./Logging.ts"
import { type ChatMode, RequestLog } from "./RequestLog.ts"
import { protocolOfRoute, routeLabel } from "./routeLabel.ts"
import { annotateSpan, traced, Tracing } from "./Tracing.ts"

/** What the server does with each request for logs, metrics and traces; made once, where the server is built. */
export interface RequestObserver {
  readonly start: (correlationId: string, method: string | undefined, url: string | undefined) => RequestLog
  /** The chat run began, streamed or in one piece. */
  readonly running: (log: RequestLog, mode: ChatMode) => void
  /**
   * `handle`, the whole of a request's answer, in its span (when traces are
   * on) with the correlation id on every log line it writes; at its end,
   * whatever ended it, the request's metrics and its `request` line at `info`.
   * `statusOf` tells the status sent, 499 when the client went away first.
   */
  readonly observe: <A, E, R>(
    log: RequestLog,
    handle: Effect.Effect<A, E, R>,
    statusOf: (exit: Exit.Exit<A, E>) => number
  ) => Effect.Effect<A, E, R>
}

/** Reads the gateway's metrics and tracing settings once, so a request pays for neither lookup. */
export const requestObserver: Effect.Effect<RequestObserver> = Effect.withFiber((fiber) => {
  const metrics = fiber.getRef(Metrics)
  const tracing = fiber.getRef(Tracing)
  // JSON logs: the line is written here, the same line Effect's logger would write for ~5 µs more.
  const jsonSink = fiber.getRef(JsonInfoSink)
  const writeLine = (log: RequestLog) =>
    jsonSink === undefined
      ? Effect.logInfo("request", log)
      : Effect.sync(() => jsonSink(log.jsonLine(Date.now())))

  const finish = <A, E>(log: RequestLog, exit: Exit.Exit<A, E>, status: number) => {
    if (exit._tag === "Failure" && Cause.hasInterruptsOnly(exit.cause)) log.outcome ??= "cancelled"
    log.end(status)
    const route = routeLabel(log.path)
    const protocol = protocolOfRoute(route)
    metrics.request(route, status, log.durationMs / 1000, protocol)
    if (log.mode !== undefined) metrics.chatActive(log.mode, -1, protocol)
    return annotateSpan(tracing, () => ({
      "http.response.status_code": status,
      "parley.outcome": log.outcome,
      ...(log.keyId === null ? {} : { "parley.key_id": log.keyId }),
      ...(log.model === null ? {} : { "gen_ai.request.model": log.model }),
      ...(log.target === null ? {} : { "parley.target": log.target }),
      ...(log.attempts === null ? {} : { "parley.attempts": log.attempts })
    })).pipe(Effect.andThen(writeLine(log)))
  }

  return Effect.succeed<RequestObserver>({
    start: (correlationId, method, url) => new RequestLog(correlationId, method, url),
    running: (log, mode) => {
      log.running(mode)
      metrics.chatActive(mode, 1, protocolOfRoute(routeLabel(log.path)))
    },
    observe: (log, handle, statusOf) => {
      const ended = Effect.onExit(handle, (exit) => finish(log, exit, statusOf(exit)))
      const route = routeLabel(log.path)
      const spanned = traced(tracing, ended, `${log.method} ${route}`, () => {
        const protocol = protocolOfRoute(route)
        return {
          "http.request.method": log.method,
          "url.path": log.path,
          "parley.correlation_id": log.correlationId,
          ...(protocol === undefined ? {} : { "parley.protocol": protocol })
        }
      }, "server")
      return Effect.annotateLogs(spanned, "correlationId", log.correlationId)
    }
  })
})
