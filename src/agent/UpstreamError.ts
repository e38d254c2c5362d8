import { APICallError } from "@ai-sdk/provider"
import { Predicate, Schema } from "effect"

/**
 * A model provider failed: unreachable, rate limited, an HTTP error, or a
 * broken stream. `message` is safe to show a client: it never carries the
 * provider's API key, request headers, URL or a stack.
 */
export class UpstreamError extends Schema.TaggedError<UpstreamError>()("UpstreamError", {
  provider: Schema.String,
  status: Schema.optionalKey(Schema.Number),
  retryable: Schema.Boolean,
  message: Schema.String
}) {}

const MAX_MESSAGE_LENGTH = 300

// Provider error texts sometimes echo credentials ("Incorrect API key provided: sk-…").
const SECRET_PATTERNS: ReadonlyArray<RegExp> = [
  /\b(?:sk|pk|rk|ak|key|api[-_]?key|sess|tok)[-_][A-Za-z0-9*_-][A-Za-z0-9*._-]{4,}[A-Za-z0-9*_-]/gi,
  /\bBearer\s+\S+/gi,
  /\b[A-Za-z0-9+/_-]{32,}={0,2}/g
]

/** Removes anything that looks like a credential and caps the length. */
export const redact = (text: string): string => {
  let safe = text
  for (const pattern of SECRET_PATTERNS) safe = safe.replace(pattern, "[redacted]")
  return safe.length > MAX_MESSAGE_LENGTH ? `${safe.slice(0, MAX_MESSAGE_LENGTH)}…` : safe
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT"
])

/** A connection that could not be made or was dropped (fetch rejects with a TypeError). */
export const isNetworkError = (error: unknown, depth = 0): boolean => {
  if (error instanceof TypeError) return true
  if (depth > 3 || !Predicate.isObject(error)) return false
  if (Predicate.isString(error.code) && NETWORK_CODES.has(error.code)) return true
  return isNetworkError(error.cause, depth + 1)
}

/** Classifies any failure of a model call into an UpstreamError. */
export const toUpstreamError = (provider: string, error: unknown): UpstreamError => {
  if (error instanceof UpstreamError) return error
  if (APICallError.isInstance(error)) {
    const status = error.statusCode
    const retryable = error.isRetryable || isNetworkError(error.cause)
    const reason = redact(error.message)
    return new UpstreamError({
      provider,
      ...(status === undefined ? {} : { status }),
      retryable,
      message: status === undefined
        ? `${provider} could not be reached: ${reason}`
        : `${provider} answered HTTP ${status}: ${reason}`
    })
  }
  if (isNetworkError(error)) {
    return new UpstreamError({ provider, retryable: true, message: `${provider} could not be reached` })
  }
  const reason = Predicate.isObject(error) && Predicate.isString(error.message) ? error.message : "unknown error"
  return new UpstreamError({ provider, retryable: false, message: `${provider} failed: ${redact(reason)}` })
}

/** The delay a failed call asks for (`retry-after-ms`, `retry-after`), in ms. */
export const retryAfterMs = (error: unknown): number | undefined => {
  if (!APICallError.isInstance(error) || error.responseHeaders === undefined) return undefined
  const headers = error.responseHeaders
  const ms = headers["retry-after-ms"]
  if (ms !== undefined && !Number.isNaN(Number.parseFloat(ms))) return Number.parseFloat(ms)
  const after = headers["retry-after"]
  if (after === undefined) return undefined
  const seconds = Number.parseFloat(after)
  if (!Number.isNaN(seconds)) return seconds * 1000
  const date = Date.parse(after)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}
