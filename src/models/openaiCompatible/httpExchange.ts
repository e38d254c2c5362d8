import { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import { abortReason, agentFor } from "../httpAgents.ts"

/** One request and its response, once the response's headers arrived. */
export interface Exchange {
  readonly request: ClientRequest
  readonly response: IncomingMessage
}

/**
 * POSTs `body` over the shared keep-alive agents; resolves once the
 * response's headers arrived, the body unread. Fails the way the fetch under
 * the AI SDK does (parley's `nodeFetch`): with the signal's reason on abort
 * (the request destroyed), else with `TypeError("fetch failed")` caused by
 * the network error. Unlike fetch, it does not follow a redirect: that is
 * answered like any other status (an API does not redirect its POSTs).
 */
export const post = (
  url: URL,
  headers: OutgoingHttpHeaders,
  body: string,
  signal: AbortSignal | undefined
): Promise<Exchange> => {
  const agent = agentFor(url)
  if (agent === undefined) {
    return Promise.reject(new TypeError("fetch failed", { cause: new Error(`unsupported protocol ${url.protocol}`) }))
  }
  if (signal?.aborted === true) return Promise.reject(abortReason(signal))
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest
    const request = send(url, { method: "POST", headers, agent }, (response) => {
      signal?.removeEventListener("abort", onAbort)
      // Errors after this point belong to whoever reads the body; this one keeps them from going unhandled.
      response.on("error", ignore)
      resolve({ request, response })
    })
    const onAbort = () => {
      reject(abortReason(signal!))
      request.destroy()
    }
    request.on("error", (cause) => {
      signal?.removeEventListener("abort", onAbort)
      reject(signal?.aborted === true ? abortReason(signal) : new TypeError("fetch failed", { cause }))
    })
    signal?.addEventListener("abort", onAbort, { once: true })
    request.end(body)
  })
}

const ignore = () => undefined

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
 * The whole body. Rejects with the signal's reason on abort (the request
 * destroyed), else with `TypeError("terminated")` caused by the network
 * error, as a fetch body does.
 */
export const readBody = (exchange: Exchange, signal: AbortSignal | undefined): Promise<Buffer> => {
  const { request, response } = exchange
  if (signal?.aborted === true) {
    request.destroy()
    return Promise.reject(abortReason(signal))
  }
  return new Promise((resolve, reject) => {
    const parts: Array<Buffer> = []
    const onAbort = () => {
      reject(abortReason(signal!))
      request.destroy()
    }
    signal?.addEventListener("abort", onAbort, { once: true })
    response.on("data", (part: Buffer) => parts.push(part))
    response.once("end", () => {
      signal?.removeEventListener("abort", onAbort)
      resolve(Buffer.concat(parts))
    })
    response.once("error", (cause) => {
      signal?.removeEventListener("abort", onAbort)
      reject(signal?.aborted === true ? abortReason(signal) : new TypeError("terminated", { cause }))
    })
  })
}
