import { Duration, Effect, Redacted, Schedule } from "effect"
import { asksTooLong, retryAfterMs, retrySchedule, type RetryVerdict } from "../../net/retry.ts"
import { checkHost, jsonBody, postJson, type RemoteAnswer } from "../messaging/postJson.ts"
import { excerpt } from "../messaging/redact.ts"
import type { UrlPolicy } from "../outbound/urlPolicy.ts"
import { ToolFailure } from "../Tool.ts"
import { isRetryableStatus, type RetryPolicy } from "./retryPolicy.ts"

/**
 * The partner messaging API, as chat_message speaks it:
 *
 *     POST {baseUrl}/v1/messages
 *     Authorization: Bearer <partnerToken>
 *     Idempotency-Key: <key>            (one per tool call, the same on every retry)
 *     Content-Type: application/json
 *     {"from": "<defaultMessengerId>", "to": "<contact id>", "text": "<message>"}
 *
 *     2xx     {"id": "<message id>", "status": "<sent|queued|…>"}   (both optional)
 *     error   {"error": {"code": "<code>", "message": "<text>"}}    (optional)
 *
 * 408, 429, 5xx and unreachable or silent servers are retried with backoff,
 * honouring `Retry-After`; the partner must treat a repeated key as the same
 * message, so a retry never sends twice.
 */
export interface SendRequest {
  readonly baseUrl: string
  /** Checks the host when the base URL came from the request. */
  readonly urlPolicy?: UrlPolicy | undefined
  readonly token: Redacted.Redacted<string>
  readonly idempotencyKey: string
  readonly from: string
  readonly to: string
  readonly text: string
}

export interface SendReceipt {
  readonly id: string | undefined
  readonly status: string | undefined
  readonly attempts: number
}

/** `{baseUrl}/v1/messages`, keeping a path prefix of the base URL. */
export const messagesUrl = (baseUrl: string): string =>
  new URL("v1/messages", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`).href

const errorDetail = (answer: RemoteAnswer, secrets: ReadonlyArray<Redacted.Redacted<string>>): string => {
  const body = jsonBody(answer) as { error?: { code?: unknown; message?: unknown } } | undefined
  const parts = [body?.error?.code, body?.error?.message].filter((part): part is string => typeof part === "string")
  return parts.length === 0 ? "" : ` (${excerpt(parts.join(": "), secrets)})`
}

const refusal = (answer: RemoteAnswer, request: SendRequest): string => {
  const detail = errorDetail(answer, [request.token])
  switch (answer.status) {
    case 400:
    case 422:
      return `The partner API refused the message (HTTP ${answer.status})${detail}.`
    case 401:
      return `The partner API did not accept context.partnerToken (HTTP 401)${detail}.`
    case 403:
      return `context.partnerToken may not send as "${request.from}" (HTTP 403)${detail}.`
    case 404:
      return `The partner API knows no contact "${request.to}" or account "${request.from}" (HTTP 404)${detail}.`
    case 409:
      return `The partner API holds another message under this idempotency key (HTTP 409)${detail}.`
    default:
      return `The partner API answered HTTP ${answer.status}${detail}.`
  }
}

const receiptOf = (answer: RemoteAnswer, attempts: number): SendReceipt => {
  const body = jsonBody(answer) as { id?: unknown; status?: unknown } | undefined
  return {
    id: typeof body?.id === "string" ? body.id : undefined,
    status: typeof body?.status === "string" ? body.status : undefined,
    attempts
  }
}

const tried = (attempts: number) => (attempts === 1 ? "" : ` Gave up after ${attempts} attempts.`)

/** A send the partner did not take and that may be tried again. */
type Unsent =
  | { readonly _tag: "Unreachable"; readonly failure: ToolFailure }
  | { readonly _tag: "Busy"; readonly answer: RemoteAnswer; readonly retryAfterMs: number | undefined }

const verdictOf = (error: Unsent | ToolFailure): RetryVerdict =>
  error instanceof ToolFailure
    ? { retryable: false }
    : { retryable: true, retryAfterMs: error._tag === "Busy" ? error.retryAfterMs : undefined }

/** Sends one message, retrying what may be retried; fails with a ToolFailure the model can act on. */
export const sendMessage = Effect.fn("PartnerApi.sendMessage")(function*(request: SendRequest, policy: RetryPolicy) {
  const url = Redacted.make(messagesUrl(request.baseUrl))
  // Checked once: a refused host is not a failure worth retrying.
  yield* checkHost("the partner messaging API", url, request.urlPolicy)
  let attempts = 0
  const attempt = Effect.suspend(() => {
    attempts++
    return postJson({
      service: "the partner messaging API",
      url,
      headers: { authorization: `Bearer ${Redacted.value(request.token)}`, "idempotency-key": request.idempotencyKey },
      body: { from: request.from, to: request.to, text: request.text },
      timeoutMs: policy.timeoutMs
    })
  }).pipe(
    Effect.catch((failure): Effect.Effect<never, Unsent> => Effect.fail({ _tag: "Unreachable", failure })),
    Effect.flatMap((answer): Effect.Effect<SendReceipt, Unsent | ToolFailure> => {
      if (answer.status >= 200 && answer.status < 300) return Effect.succeed(receiptOf(answer, attempts))
      if (!isRetryableStatus(answer.status)) return Effect.fail(new ToolFailure(refusal(answer, request)))
      return Effect.fail({ _tag: "Busy", answer, retryAfterMs: retryAfterMs(answer.headers) })
    })
  )
  const schedule = retrySchedule(policy, verdictOf).pipe(
    Schedule.tap(({ attempt, duration, input }) =>
      Effect.logInfo("chat_message: retrying the partner API").pipe(
        Effect.annotateLogs({
          attempt,
          reason: !(input instanceof ToolFailure) && input._tag === "Busy"
            ? `HTTP ${input.answer.status}`
            : "unreachable",
          delayMs: Duration.toMillis(duration)
        })
      )
    )
  )
  return yield* Effect.retry(attempt, schedule).pipe(
    Effect.mapError((error) => {
      if (error instanceof ToolFailure) return error
      if (error._tag === "Unreachable") return new ToolFailure(`${error.failure.message}${tried(attempts)}`)
      const { answer, retryAfterMs: asked } = error
      return asked !== undefined && asksTooLong(policy, verdictOf(error))
        ? new ToolFailure(`The partner API is busy (HTTP ${answer.status}); try again in ${Math.ceil(asked / 1000)} s.`)
        : new ToolFailure(`${refusal(answer, request)}${tried(attempts)}`)
    })
  )
})
