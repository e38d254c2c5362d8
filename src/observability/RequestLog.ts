import type { ApiKey } from "../domain/ApiKey.ts"
import { isoTime } from "./logTime.ts"

// Longer paths are cut: a client may send one of 16 KiB, and the line is for people.
const MAX_PATH = 200

export type ChatMode = "stream" | "json"

/**
 * One request as its log line states it (docs/DESIGN.md §8), filled in as the
 * request goes: the one object a request adds to logging. Its own fields are
 * the line; the `#` fields are bookkeeping and never written. Never the
 * Authorization header, the body or anything a message says.
 */
export class RequestLog {
  // Declared in the order the line states them.
  readonly correlationId: string
  readonly method: string
  readonly path: string
  status = 0
  durationMs = 0
  keyId: string | null = null
  accountId: string | null = null
  model: string | null = null
  /** The provider model that served the answer: a route's target (docs/DESIGN.md §15), else the model itself. */
  target: string | null = null
  /** Model calls sent: retries and a route's other targets included. */
  attempts: number | null = null
  inputTokens: number | null = null
  outputTokens: number | null = null
  /** `ok`, the failure's tag (`InvalidApiKey`, `ProviderUnavailable`…), a run's unfinished reason, `cancelled`. */
  outcome: string | null = null
  readonly #startedAt = performance.now()
  #mode: ChatMode | undefined

  constructor(correlationId: string, method: string | undefined, url: string | undefined) {
    this.correlationId = correlationId
    this.method = method ?? ""
    const path = (url ?? "").split("?", 1)[0]!
    this.path = path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path
  }

  /** The key the request was authenticated with, by id (never the secret). */
  keyed(key: ApiKey): void {
    this.keyId = key.id
    this.accountId = key.accountId
  }

  /** How the run ended: its tokens and, when it did not finish, why (`length`, `step-limit`, `timeout`…). */
  ran(summary: {
    readonly finished: boolean
    readonly finishReason: string
    readonly usage: { readonly inputTokens?: number | undefined; readonly outputTokens?: number | undefined }
  }): void {
    this.inputTokens = summary.usage.inputTokens ?? null
    this.outputTokens = summary.usage.outputTokens ?? null
    if (!summary.finished) this.outcome ??= summary.finishReason
  }

  /** Which target served the run and after how many model calls (a run meter's). */
  routed(calls: { readonly target: string | undefined; readonly attempts: number } | undefined): void {
    if (calls === undefined || calls.attempts === 0) return
    this.target = calls.target ?? null
    this.attempts = calls.attempts
  }

  /** The chat run began: it counts in `parley_chat_active` until the request ends. */
  running(mode: ChatMode): void {
    this.#mode = mode
  }

  get mode(): ChatMode | undefined {
    return this.#mode
  }

  /**
   * The `request` line exactly as the JSON logger writes it with the
   * correlation id as its one annotation (`Logging.ts`), made in one
   * `JSON.stringify` of this record's fixed shape.
   */
  jsonLine(epochMs: number): string {
    return `{"time":"${isoTime(epochMs)}","level":"info","msg":"request",${JSON.stringify(this).slice(1)}`
  }

  /** Ends the record: its status, duration and, unless a failure named it already, the outcome its status says. */
  end(status: number): void {
    this.status = status
    this.durationMs = Math.round((performance.now() - this.#startedAt) * 1000) / 1000
    this.outcome ??= status === 499 ? "cancelled" : status < 400 ? "ok" : status < 500 ? "rejected" : "error"
  }
}
