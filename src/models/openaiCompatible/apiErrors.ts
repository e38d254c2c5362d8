import { APICallError } from "@ai-sdk/provider"
import { isAbortError, secureJsonParse } from "@ai-sdk/provider-utils"
import { isRecord } from "../../domain/isRecord.ts"

/** What every error of one call carries about it (never the API key: it travels in a header). */
export interface CallInfo {
  readonly url: string
  readonly requestBodyValues: unknown
}

/** A response the call failed on. */
export interface ResponseInfo {
  readonly statusCode: number
  readonly headers: Record<string, string>
}

const FETCH_FAILED_MESSAGES = ["fetch failed", "failed to fetch"]

const RETRYABLE_NETWORK_ERROR_CODES = new Set([
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT"
])

const findNetworkError = (error: unknown): (Error & { code?: unknown }) | undefined => {
  const visited = new Set<Error>()
  let current = error
  while (current instanceof Error && !visited.has(current)) {
    visited.add(current)
    const code = (current as Error & { code?: unknown }).code
    if (typeof code === "string" && RETRYABLE_NETWORK_ERROR_CODES.has(code)) return current
    current = current.cause
  }
  return undefined
}

/**
 * What the AI SDK's `postToApi` turns a failure into (provider-utils'
 * `handleFetchError`, which it does not export): aborts pass through; a
 * connection that could not be made, or anything caused by a network error,
 * becomes a retryable APICallError ("Cannot connect to API: …").
 */
export const toCallError = (error: unknown, call: CallInfo): unknown => {
  if (isAbortError(error)) return error
  if (error instanceof TypeError && FETCH_FAILED_MESSAGES.includes(error.message.toLowerCase())) {
    const cause = error.cause as { message?: unknown } | null | undefined
    if (cause != null) {
      return new APICallError({
        message: `Cannot connect to API: ${cause.message}`,
        cause,
        url: call.url,
        requestBodyValues: call.requestBodyValues,
        isRetryable: true
      })
    }
  }
  const networkError = findNetworkError(error)
  if (networkError === undefined) return error
  if (APICallError.isInstance(error)) {
    return new APICallError({
      message: error.message,
      cause: error.cause,
      url: error.url,
      requestBodyValues: error.requestBodyValues,
      ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      ...(error.responseHeaders === undefined ? {} : { responseHeaders: error.responseHeaders }),
      ...(error.responseBody === undefined ? {} : { responseBody: error.responseBody }),
      data: error.data,
      isRetryable: true
    })
  }
  return new APICallError({
    message: `Cannot connect to API: ${error instanceof Error ? error.message : networkError.message}`,
    cause: error,
    url: call.url,
    requestBodyValues: call.requestBodyValues,
    isRetryable: true
  })
}

/**
 * A response body that could not be read to its end (`message` says which:
 * "Failed to process successful response" / "… error response"), as the SDK
 * reports it: an abort as itself, anything else wrapped with the response's
 * status and headers, retryable when a network error caused it.
 */
export const readFailure = (message: string, error: unknown, response: ResponseInfo, call: CallInfo): unknown =>
  isAbortError(error) ? error : toCallError(
    new APICallError({
      message,
      cause: error,
      statusCode: response.statusCode,
      url: call.url,
      responseHeaders: response.headers,
      requestBodyValues: call.requestBodyValues
    }),
    call
  )

type Fields = Record<string, unknown>

const ERROR_FIELDS = ["message", "type", "param", "code"] as const

// `{ error: { message, type?, param?, code? } }`, as the provider's error schema parses it (unknown keys dropped).
const errorData = (text: string): { error: Fields } | undefined => {
  let value: unknown
  try {
    value = secureJsonParse(text)
  } catch {
    return undefined
  }
  if (!isRecord(value) || !isRecord(value.error)) return undefined
  const { message, type, code } = value.error
  if (typeof message !== "string" || (type != null && typeof type !== "string")) return undefined
  if (code != null && typeof code !== "string" && typeof code !== "number") return undefined
  const error: Fields = {}
  for (const field of ERROR_FIELDS) if (Object.hasOwn(value.error, field)) error[field] = value.error[field]
  return { error }
}

/** `text` with the API key, should an upstream echo it, replaced. */
export const hideKey = (text: string, apiKey: string | undefined): string =>
  apiKey ? text.replaceAll(apiKey, "[redacted]") : text

/**
 * The APICallError for an HTTP error status, as the provider's failed
 * response handler makes it: the body's `error.message`, else the status
 * text. Retryable for 408, 409, 429 and 5xx. Should the upstream echo the
 * API key, it is replaced before anything is made of the body.
 */
export const statusError = (
  response: ResponseInfo & { readonly statusText: string },
  body: string,
  call: CallInfo,
  apiKey: string | undefined
): APICallError => {
  const responseBody = hideKey(body, apiKey)
  const data = responseBody.trim() === "" ? undefined : errorData(responseBody)
  return new APICallError({
    message: data === undefined ? hideKey(response.statusText, apiKey) : data.error.message as string,
    url: call.url,
    requestBodyValues: call.requestBodyValues,
    statusCode: response.statusCode,
    responseHeaders: response.headers,
    responseBody,
    ...(data === undefined ? {} : { data })
  })
}
