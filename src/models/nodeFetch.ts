import type { IncomingMessage } from "node:http"
import { abortReason, agentFor } from "../net/httpAgents.ts"
import { send } from "../net/httpClient.ts"
import type { ResponseTimeouts } from "../net/responseTimeouts.ts"

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const NO_BODY = new Set([101, 204, 205, 304])

const plainHeaders = (headers: HeadersInit | undefined, body: string | undefined): Record<string, string> => {
  const out: Record<string, string> = {}
  if (headers instanceof Headers || Array.isArray(headers)) {
    for (const [name, value] of new Headers(headers)) out[name] = value
  } else if (headers !== undefined) {
    for (const name in headers) {
      const value = headers[name]
      if (value !== undefined) out[name] = value
    }
  }
  if (body !== undefined) out["content-length"] = String(Buffer.byteLength(body))
  return out
}

const responseHeaders = (res: IncomingMessage): Headers => {
  const headers = new Headers()
  const raw = res.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
  return headers
}

// Node's stream flow control mapped onto the web stream's: paused while the reader is behind.
const bodyOf = (res: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> => {
  let onAbort: (() => void) | undefined
  let onData: ((chunk: Buffer) => void) | undefined
  const cleanUp = () => {
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort)
  }
  // A destroyed message still hands out what it had buffered; the web stream is closed by then.
  const stop = () => {
    if (onData !== undefined) res.off("data", onData)
    res.destroy()
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onData = (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        if ((controller.desiredSize ?? 1) <= 0) res.pause()
      }
      res.on("data", onData)
      res.once("end", () => {
        cleanUp()
        controller.close()
      })
      res.once("error", (cause) => {
        cleanUp()
        controller.error(signal?.aborted === true ? abortReason(signal) : new TypeError("terminated", { cause }))
      })
      if (signal !== undefined) {
        onAbort = () => {
          controller.error(abortReason(signal))
          stop()
        }
        signal.addEventListener("abort", onAbort, { once: true })
      }
    },
    pull() {
      res.resume()
    },
    cancel() {
      cleanUp()
      stop()
    }
  })
}

/**
 * The `fetch` the provider models call with: the same contract as the
 * global fetch for what the AI SDK providers send (a POST with a string
 * body, a plain headers object, an abort signal), over the gateway's one
 * outbound client (`net/httpClient.ts`), giving up on a server silent past
 * `timeouts` (a request for a whole answer, not a stream, waits
 * `wholeAnswerMs` for its headers, which come with the answer). Anything else (a Request object, a stream body, a redirect)
 * goes to the global fetch. Failures look like the global fetch's, which
 * the providers and the provider-failure classification read.
 */
export const makeNodeFetch = (timeouts?: ResponseTimeouts, wholeAnswerMs?: number) => {
  const whole = wholeAnswerMs === undefined ? timeouts : { ...timeouts, firstByteMs: wholeAnswerMs }
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = init.body
    if (input instanceof Request || (body != null && typeof body !== "string") || init.redirect === "manual") {
      return globalThis.fetch(input, init)
    }
    const url = input instanceof URL ? input : new URL(input)
    if (agentFor(url) === undefined) return globalThis.fetch(input, init)
    const signal = init.signal ?? undefined
    const method = init.method ?? "GET"
    const { response: res } = await send(url, {
      method,
      headers: plainHeaders(init.headers, body ?? undefined),
      body: body ?? undefined,
      signal,
      timeouts: body == null || streams(url, body) ? timeouts : whole
    })
    const status = res.statusCode ?? 500
    if (REDIRECTS.has(status) && res.headers.location !== undefined) {
      res.resume()
      return globalThis.fetch(input, init)
    }
    const hasBody = !NO_BODY.has(status) && method !== "HEAD"
    if (!hasBody) res.resume()
    return new Response(hasBody ? bodyOf(res, signal) : null, {
      status,
      statusText: res.statusMessage ?? "",
      headers: responseHeaders(res)
    })
  }
}

/**
 * Whether the request asks for a stream: most providers' JSON says so with a
 * top-level `"stream":true` (inside a string the quotes are escaped); the
 * Gemini API has a method of its own, `:streamGenerateContent?alt=sse`, and
 * Bedrock's Converse API a path, `/converse-stream`.
 */
const streams = (url: URL, body: string): boolean =>
  body.includes(`"stream":true`) || url.pathname.endsWith(":streamGenerateContent") ||
  url.pathname.endsWith("/converse-stream")

/** With no timeouts of its own (benchmarks and tests compare it with the global fetch). */
export const nodeFetch = makeNodeFetch()
