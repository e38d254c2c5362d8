import type { ErrorBody } from "../../http/errorResponse.ts"
import { UNEXPECTED_MESSAGE } from "../../http/errorResponse.ts"
import { type ApiFailure, type Status, wireError } from "../../http/errorTable.ts"

/**
 * OpenAI's error envelope `{error: {message, type, param, code}}` for the
 * OpenAI doors (docs/DESIGN.md §14): the status is the error table's, the
 * `type` is the one OpenAI's SDKs and peers use for that status, `code` names
 * parley's failure (snake case) and `param` the field a request failure is
 * about. Shared by `chat-completions`, `responses` and `GET /v1/models`.
 */
export const errorTypes: { readonly [S in Status]: string } = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  409: "invalid_request_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  503: "service_unavailable"
}

const snakeCase = (tag: string) => tag.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase()

// A request failure's first issue starts with the field it is about, quoted (domain/requestIssues.ts).
const paramOf = (failure: ApiFailure, conversation: string): string | null => {
  switch (failure._tag) {
    case "InvalidRequest": {
      const first = failure.issues[0] ?? ""
      // The model id's own message is a whole sentence (domain/ChatRequest.ts).
      return first.startsWith("Invalid model format") ? "model" : /^"([^"]+)"/.exec(first)?.[1] ?? null
    }
    case "InvalidHistory":
    case "InvalidApproval":
    case "UnfetchablePart":
    case "ItemNotFound":
      return failure.path
    case "EmptyConversation":
      return conversation
    case "UnknownModel":
    case "ModelNotAllowed":
    case "ModelNotFound":
      return "model"
    case "UnknownTool":
    case "ToolNotAllowed":
      return "allowedTools"
    case "PreviousResponseNotFound":
      return "previous_response_id"
    default:
      return null
  }
}

const openAiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code }
})

/**
 * A failure in OpenAI's envelope; a 429 says when to retry in `Retry-After`.
 * `conversation` is the body's field of the conversation (`input` on Responses).
 */
export const openAiErrorBody = (failure: ApiFailure | undefined, conversation = "messages"): ErrorBody => {
  if (failure === undefined) {
    return { status: 500, body: openAiError(UNEXPECTED_MESSAGE, errorTypes[500], "internal_error") }
  }
  const { message, status } = wireError(failure)
  return withRetryAfter(
    failure,
    status,
    openAiError(message, errorTypes[status], snakeCase(failure._tag), paramOf(failure, conversation))
  )
}

/** An error body of any envelope, with `Retry-After` when a limit refused the request. */
export const withRetryAfter = (failure: ApiFailure, status: number, body: Record<string, unknown>): ErrorBody =>
  failure._tag === "LimitExceeded"
    ? { status, body, headers: { "retry-after": String(failure.retryAfterSeconds) } }
    : { status, body }
