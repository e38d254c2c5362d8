import { Effect, Redacted } from "effect"
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
