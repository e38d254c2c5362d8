import { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import type { LookupFunction } from "node:net"
import { abortReason, agentFor } from "./httpAgents.ts"
import { type ResponseTimeouts, watchFirstByte, watchIdle } from "./responseTimeouts.ts"

/**
 * The gateway's one outbound HTTP client: `node:http(s)` over the shared
 * keep-alive agents. The global fetch (undici's WHATWG layer) costs about
 * 0.4 ms of CPU per call more, most of the gateway's own cost on a model
 * call (BENCHMARKS.md), so model calls, webhooks and the partner API all go
 * through here. Failures look like fetch's, which the AI SDK providers and
 * the provider-failure classification read: the signal's reason on abort,
 * `TypeError("fetch failed")` caused by the network error when the request
 * fails, `TypeError("terminated")` when the body is cut short.
 */

/** One request and its response, once the response's headers arrived. */
export interface Exchange {
  readonly request: ClientRequest
  readonly response: IncomingMessage
}

export interface OutboundRequest {
  readonly method: string
  readonly headers: OutgoingHttpHeaders
  readonly body?: string | undefined
  /** Aborting it destroys the request; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined
  /** A silent server fails the request with a `ResponseTimeout` (as a network error, see `send`). */
  readonly timeouts?: ResponseTimeouts | undefined
  /**
   * Connect to this address, already checked by the outbound policy, rather
   * than resolving the host again (a second answer could point elsewhere).
   * The connection is not pooled: a pooled socket is keyed by host, not address.
   */
  readonly address?: { readonly address: string; readonly family: number } | undefined
}

/**
 * Sends the request; resolves once the response's headers arrived, the body
 * unread. A redirect is answered like any other status: it is not followed.
 * With `timeouts`, headers that do not come in time reject it as a failed
 * fetch caused by a `ResponseTimeout`, and a body that goes silent ends in
 * the same error as a cut connection, caused by one.
 */
export const send = (url: URL, outbound: OutboundRequest): Promise<Exchange> => {
  const agent = agentFor(url)
  if (agent === undefined) {
    return Promise.reject(new TypeError("fetch failed", { cause: new Error(`unsupported protocol ${url.protocol}`) }))
  }
  const signal = outbound.signal
  if (signal?.aborted === true) return Promise.reject(abortReason(signal))
  const pinned = outbound.address
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      pinned === undefined
        ? { method: outbound.method, headers: outbound.headers, agent }
        : { method: outbound.method, headers: outbound.headers, agent: false, lookup: pinnedLookup(pinned) },
      (response) => {
        disarm()
        signal?.removeEventListener("abort", onAbort)
        watchIdle(response, outbound.timeouts?.idleMs)
        // Errors after this point belong to whoever reads the body; this one keeps them from going unhandled.
        response.on("error", ignore)
        resolve({ request, response })
      }
    )
    const onAbort = () => {
      reject(abortReason(signal!))
      request.destroy()
    }
    const disarm = watchFirstByte(request, outbound.timeouts?.firstByteMs)
    request.on("error", (cause) => {
      disarm()
      signal?.removeEventListener("abort", onAbort)
      reject(signal?.aborted === true ? abortReason(signal) : new TypeError("fetch failed", { cause }))
    })
    signal?.addEventListener("abort", onAbort, { once: true })
    request.end(outbound.body)
  })
}

const ignore = () => undefined

// Answers every lookup of the request's host with the checked address (one, or a list when asked for all).
const pinnedLookup =
  (pinned: { readonly address: string; readonly family: number }): LookupFunction => (_hostname, options, callback) => {
    if (options.all === true) {
      return (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{
        address: pinned.address,
        family: pinned.family
      }])
    }
    callback(null, pinned.address, pinned.family)
  }

/**
 * The response's headers as the AI SDK reports them (a fetch `Headers`
 * turned into an object): names in lower case and sorted, repeated headers
 * joined by ", ", of several set-cookie headers the last.
 */
export const headersOf = (response: IncomingMessage): Record<string, string> => {
  const raw = response.rawHeaders
  const joined = new Map<string, string>()
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    const value = raw[i + 1]!
    const before = joined.get(name)
    joined.set(name, before === undefined || name === "set-cookie" ? value : `${before}, ${value}`)
  }
  const headers: Record<string, string> = {}
  for (const name of [...joined.keys()].sort()) headers[name] = joined.get(name)!
  return headers
}

/**
 * The body, whole or its first `maxBytes` (the rest is not read: the
 * request is destroyed). Rejects with the signal's reason on abort (the
 * request destroyed), else with `TypeError("terminated")` caused by the
 * network error, as a fetch body does.
 */
export const readBody = (exchange: Exchange, signal: AbortSignal | undefined, maxBytes = Infinity): Promise<Buffer> => {
  const { request, response } = exchange
  if (signal?.aborted === true) {
    request.destroy()
    return Promise.reject(abortReason(signal))
  }
  return new Promise((resolve, reject) => {
    const parts: Array<Buffer> = []
    let size = 0
    const onAbort = () => {
      reject(abortReason(signal!))
      request.destroy()
    }
    const done = () => {
      signal?.removeEventListener("abort", onAbort)
      resolve(size > maxBytes ? Buffer.concat(parts).subarray(0, maxBytes) : Buffer.concat(parts))
    }
    signal?.addEventListener("abort", onAbort, { once: true })
    response.on("data", (part: Buffer) => {
      parts.push(part)
      size += part.byteLength
      if (size < maxBytes) return
      response.removeAllListeners("data")
      if (!response.complete) request.destroy()
      done()
    })
    response.once("end", done)
    response.once("error", (cause) => {
      signal?.removeEventListener("abort", onAbort)
      reject(signal?.aborted === true ? abortReason(signal) : new TypeError("terminated", { cause }))
    })
  })
}
