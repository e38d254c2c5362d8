import { APICallError, InvalidPromptError, UnsupportedFunctionalityError } from "@ai-sdk/provider"
import { Predicate, Schema } from "effect"
import { ResponseTimeout } from "../net/responseTimeouts.ts"
import { retryAfterMs } from "../net/retry.ts"

// `message` is safe to show a client: it never carries the provider's API key, request headers, URL or a stack.
const fields = {
  provider: Schema.String,
  /** The provider's HTTP status, when it answered one. */
  status: Schema.optionalKey(Schema.Number),
  message: Schema.String
}

/**
 * The provider could not answer now: unreachable, rate limited, failing
 * (408, 409, 429, 5xx), a connection dropped, or no answer in time. Worth
 * trying again later (docs/DESIGN.md §3.8).
 */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()("ProviderUnavailable", fields) {}

/** The provider refused the request or broke its answer: trying again would not help. */
export class ProviderRejected extends Schema.TaggedError<ProviderRejected>()("ProviderRejected", fields) {}

/**
 * The conversation holds content this provider's API cannot carry (a file of
 * a media type it does not take): the provider's client refused to build the
 * request, so nothing was sent. The client's mistake (docs/DESIGN.md §3.18).
 */
export class ProviderCannotTake extends Schema.TaggedError<ProviderCannotTake>()("ProviderCannotTake", fields) {}

export type ProviderFailure = ProviderUnavailable | ProviderRejected | ProviderCannotTake

const MAX_MESSAGE_LENGTH = 300

// Provider error texts sometimes echo credentials ("Incorrect API key provided: sk-…").
const SECRET_PATTERNS: ReadonlyArray<RegExp> = [
  /\b(?:sk|pk|rk|ak|key|api[-_]?key|sess|tok)[-_][A-Za-z0-9*_-][A-Za-z0-9*._-]{4,}[A-Za-z0-9*_-]/gi,
  /\bBearer\s+\S+/gi,
  // An AWS access key id (Bedrock's SigV4 errors may quote it): 20 characters, too short for the rule below.
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
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

// A provider's silence, wherever the client or the SDK wrapped it.
const timeoutIn = (error: unknown, depth = 0): ResponseTimeout | undefined =>
  error instanceof ResponseTimeout
    ? error
    : depth > 3 || !Predicate.isObject(error)
    ? undefined
    : timeoutIn(error.cause, depth + 1)

const silence = (provider: string, timeout: ResponseTimeout): string =>
  timeout.phase === "first-byte"
    ? `${provider} did not start answering within ${timeout.ms / 1000} s`
    : `${provider} sent nothing for ${timeout.ms / 1000} s`

/**
 * An error the provider sent inside a stream it had begun with 200 (Gemini's
 * and Groq's error chunks, xAI's `error` event, Anthropic's
 * `overloaded_error`), as the AI SDK packages report it: a plain object with
 * the provider's message, its status when it gave one, and whether to retry
 * (`createProviderStreamError`). Read by shape, as the packages may each
 * bundle their own copy of the AI SDK's utilities.
 */
const streamErrorIn = (
  error: unknown
): { readonly message: string; readonly statusCode?: number; readonly isRetryable: boolean } | undefined =>
  Predicate.isObject(error) && Predicate.isString(error.message) && Predicate.isBoolean(error.isRetryable)
    ? {
      message: error.message,
      isRetryable: error.isRetryable,
      ...(Predicate.isNumber(error.statusCode) ? { statusCode: error.statusCode } : {})
    }
    : undefined

/** Classifies any failure of a model call. */
export const toProviderFailure = (provider: string, error: unknown): ProviderFailure => {
  if (error instanceof ProviderUnavailable || error instanceof ProviderRejected) return error
  if (UnsupportedFunctionalityError.isInstance(error) || InvalidPromptError.isInstance(error)) {
    return new ProviderCannotTake({ provider, message: redact(error.message) })
  }
  const timeout = timeoutIn(error)
  if (timeout !== undefined) return new ProviderUnavailable({ provider, message: silence(provider, timeout) })
  if (APICallError.isInstance(error)) {
    const status = error.statusCode
    const reason = redact(error.message)
    const failure = {
      provider,
      ...(status === undefined ? {} : { status }),
      message: status === undefined
        ? `${provider} could not be reached: ${reason}`
        : `${provider} answered HTTP ${status}: ${reason}`
    }
    return error.isRetryable || isNetworkError(error.cause)
      ? new ProviderUnavailable(failure)
      : new ProviderRejected(failure)
  }
  if (isNetworkError(error)) return new ProviderUnavailable({ provider, message: `${provider} could not be reached` })
  const streamed = streamErrorIn(error)
  if (streamed !== undefined) {
    const status = streamed.statusCode
    const failure = {
      provider,
      ...(status === undefined ? {} : { status }),
      message: `${provider} reported an error in its answer${status === undefined ? "" : ` (${status})`}: ${
        redact(streamed.message)
      }`
    }
    return streamed.isRetryable ? new ProviderUnavailable(failure) : new ProviderRejected(failure)
  }
  const reason = Predicate.isObject(error) && Predicate.isString(error.message) ? error.message : "unknown error"
  return new ProviderRejected({ provider, message: `${provider} failed: ${redact(reason)}` })
}

/** The delay a failed call asks for (`retry-after-ms`, `retry-after`), in ms. */
export const retryAfterOf = (error: unknown): number | undefined =>
  APICallError.isInstance(error) && error.responseHeaders !== undefined
    ? retryAfterMs(error.responseHeaders)
    : undefined
