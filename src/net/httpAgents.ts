import { Agent as HttpAgent } from "node:http"
import { Agent as HttpsAgent } from "node:https"

/**
 * One pool of kept-alive connections per protocol for every outbound call
 * the gateway makes (model calls, webhooks, the partner API): a call reuses
 * a warm socket instead of paying a TCP (and TLS) handshake.
 */
export const httpAgents = {
  "http:": new HttpAgent({ keepAlive: true }),
  "https:": new HttpsAgent({ keepAlive: true })
}

/** The pool for `url`'s protocol; undefined for anything but http and https. */
export const agentFor = (url: URL): HttpAgent | undefined =>
  url.protocol === "https:" ? httpAgents["https:"] : url.protocol === "http:" ? httpAgents["http:"] : undefined

/** The reason an aborted call fails with: the signal's (always set by `abort()`), else what fetch uses. */
export const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException("This operation was aborted", "AbortError")
