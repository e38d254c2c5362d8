import type { ErrorBody } from "../../http/errorResponse.ts"
import { UNEXPECTED_MESSAGE } from "../../http/errorResponse.ts"
import { type ApiFailure, type Status, wireError } from "../../http/errorTable.ts"
import { errorTypes, withRetryAfter } from "../openai/error.ts"

/**
 * Anthropic's error envelope `{type: "error", error: {type, message}}` for
 * the Messages door (docs/DESIGN.md §14): the status is the error table's,
 * `error.type` the one Anthropic's SDKs know for that status
 * (../../../shared/design/round3.md part A). Anthropic's envelope has no
 * field for the place a failure is about: the message names it. Its types
 * are OpenAI's but for 503.
 */
const types: { readonly [S in Status]: string } = { ...errorTypes, 503: "overloaded_error" }

const anthropicError = (type: string, message: string) => ({ type: "error", error: { type, message } })

/** A failure in Anthropic's envelope; a 429 says when to retry in `Retry-After`. */
export const anthropicErrorBody = (failure: ApiFailure | undefined): ErrorBody => {
  if (failure === undefined) return { status: 500, body: anthropicError(types[500], UNEXPECTED_MESSAGE) }
  const { message, status } = wireError(failure)
  return withRetryAfter(failure, status, anthropicError(types[status], message))
}
