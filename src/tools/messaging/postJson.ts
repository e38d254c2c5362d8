import { Effect, Redacted } from "effect"
import { headersOf, readBody, send } from "../../net/httpClient.ts"
import type { UrlPolicy } from "../outbound/urlPolicy.ts"
import { ToolFailure } from "../Tool.ts"

/** What a remote API answered; the body is read up to a cap (error texts, small JSON). */
export interface RemoteAnswer {
  readonly status: number
  readonly headers: Headers
  readonly body: string
}

export interface PostJsonRequest {
  /** Named in errors, e.g. "the Slack webhook"; never the URL, which may hold a key. */
  readonly service: string
  readonly url: Redacted.Redacted<string>
  readonly headers?: Readonly<Record<string, string>>
  readonly body: unknown
  readonly timeoutMs: number
  /** Checks the host first when the URL came from a request (a webhook, a partner API in tool context). */
  readonly policy?: UrlPolicy | undefined
}

const MAX_BODY_BYTES = 64 * 1024
const REDIRECTS = new Set([301, 302, 303, 307, 308])

// The client puts the reason in `cause`; only its code is safe to repeat (messages may hold the address).
const causeCode = (error: unknown): string | undefined => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause
  if (typeof cause?.code === "string" && /^[A-Z_]+$/.test(cause.code)) return cause.code
  if (typeof cause?.message === "string" && cause.message.includes("redirect")) {
    return "redirected; redirects are not followed"
  }
  return undefined
}

/**
 * POSTs JSON to a configured endpoint. The URL is unwrapped only for the
 * request; failures name the service, never the URL. Redirects are refused
 * (a webhook that moves is misconfigured, and a redirect must not carry the
 * request elsewhere).
 */
export const postJson = (request: PostJsonRequest): Effect.Effect<RemoteAnswer, ToolFailure> =>
  Effect.andThen(checkHost(request.service, request.url, request.policy), post(request))

/**
 * Refuses a URL whose host the outbound policy does not allow. DNS is
 * resolved again by the request: a name that changes its answer between the two
 * lookups is the residual risk.
 */
export const checkHost = (
  service: string,
  url: Redacted.Redacted<string>,
  policy: UrlPolicy | undefined
): Effect.Effect<void, ToolFailure> => {
  if (policy === undefined) return Effect.void
  return Effect.flatMap(
    Effect.promise(() => policy.check(new URL(Redacted.value(url)).hostname)),
    (decision) =>
      decision._tag === "Allowed"
        ? Effect.void
        : Effect.fail(
          new ToolFailure(
            `Refused to call ${service}: ${decision.reason}. Private, loopback and link-local addresses are reachable only when the server allows them (PARLEY_OUTBOUND_ALLOW_PRIVATE, PARLEY_OUTBOUND_ALLOWED_HOSTS).`
          )
        )
  )
}

const post = (request: PostJsonRequest): Effect.Effect<RemoteAnswer, ToolFailure> =>
  Effect.tryPromise({
    try: async (interrupted) => {
      const body = JSON.stringify(request.body)
      const signal = AbortSignal.any([interrupted, AbortSignal.timeout(request.timeoutMs)])
      const exchange = await send(new URL(Redacted.value(request.url)), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...request.headers,
          "content-length": Buffer.byteLength(body)
        },
        body,
        signal
      })
      const status = exchange.response.statusCode ?? 500
      if (REDIRECTS.has(status)) {
        exchange.request.destroy()
        throw new TypeError("fetch failed", { cause: new Error("unexpected redirect") })
      }
      const headers = new Headers(headersOf(exchange.response))
      return { status, headers, body: (await readBody(exchange, signal, MAX_BODY_BYTES)).toString("utf8") }
    },
    catch: (error) => {
      if (error instanceof DOMException && error.name === "TimeoutError") {
        return new ToolFailure(`${request.service} did not answer within ${Math.round(request.timeoutMs / 1000)} s.`)
      }
      const code = causeCode(error)
      return new ToolFailure(`Could not reach ${request.service}${code === undefined ? "" : ` (${code})`}.`)
    }
  })

/** The answer's body as JSON, or undefined when it is not JSON. */
export const jsonBody = (answer: RemoteAnswer): unknown => {
  try {
    return JSON.parse(answer.body)
  } catch {
    return undefined
  }
}
