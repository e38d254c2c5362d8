import { Effect, Redacted } from "effect"
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

const readCapped = async (response: Response): Promise<string> => {
  const reader = response.body?.getReader()
  if (reader === undefined) return ""
  const chunks: Array<Uint8Array> = []
  let size = 0
  while (size < MAX_BODY_BYTES) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
  }
  await reader.cancel().catch(() => undefined)
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES))
}

// Node's fetch puts the reason in `cause`; only its code is safe to repeat (messages may hold the address).
const causeCode = (error: unknown): string | undefined => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause
  if (typeof cause?.code === "string" && /^[A-Z_]+$/.test(cause.code)) return cause.code
  if (typeof cause?.message === "string" && cause.message.includes("redirect")) return "redirected; redirects are not followed"
  return undefined
}

/**
 * POSTs JSON to a configured endpoint. The URL is unwrapped only for the
 * request; failures name the service, never the URL. Redirects are refused
 * (a webhook that moves is misconfigured, and a redirect must not carry the
 * request elsewhere).
 */
export const postJson = (request: PostJsonRequest): Effect.Effect<RemoteAnswer, ToolFailure> =>
  Effect.andThen(checkHost(request.service, request.url, request.policy), send(request))

/**
 * Refuses a URL whose host the outbound policy does not allow. DNS is
 * resolved again by fetch: a name that changes its answer between the two
 * lookups is the residual risk.
 */
export const checkHost = (
  service: string,
  url: Redacted.Redacted<string>,
  policy: UrlPolicy | undefined
): Effect.Effect<void, ToolFailure> => {
  if (policy === undefined) return Effect.void
  return Effect.flatMap(Effect.promise(() => policy.check(new URL(Redacted.value(url)).hostname)), (decision) =>
    decision._tag === "Allowed"
      ? Effect.void
      : Effect.fail(
        new ToolFailure(
          `Refused to call ${service}: ${decision.reason}. Private, loopback and link-local addresses are reachable only when the server allows them (PARLEY_OUTBOUND_ALLOW_PRIVATE, PARLEY_OUTBOUND_ALLOWED_HOSTS).`
        )
      ))
}

const send = (request: PostJsonRequest): Effect.Effect<RemoteAnswer, ToolFailure> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(Redacted.value(request.url), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...request.headers },
        body: JSON.stringify(request.body),
        redirect: "error",
        signal: AbortSignal.any([signal, AbortSignal.timeout(request.timeoutMs)])
      })
      return { status: response.status, headers: response.headers, body: await readCapped(response) }
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
