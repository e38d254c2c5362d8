import { type IncomingMessage, request as httpRequest, type RequestOptions } from "node:http"
import { request as httpsRequest } from "node:https"
import { abortReason, agentFor } from "./httpAgents.ts"

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
  const cleanUp = () => {
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort)
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      res.on("data", (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        if ((controller.desiredSize ?? 1) <= 0) res.pause()
      })
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
          res.destroy()
        }
        signal.addEventListener("abort", onAbort, { once: true })
      }
    },
    pull() {
      res.resume()
    },
    cancel() {
      cleanUp()
      res.destroy()
    }
  })
}

/**
 * The `fetch` the provider models call with: the same contract as the
 * global fetch for what the AI SDK providers send (a POST with a string
 * body, a plain headers object, an abort signal), over `node:http` with
 * kept-alive connections. The global fetch (undici's WHATWG layer) costs
 * about 0.4 ms of CPU per call more; at one to thirty model calls per chat
 * request that is most of the gateway's own cost (BENCHMARKS.md). Anything
 * else (a Request object, a stream body, a redirect) goes to the global fetch.
 *
 * Failures look like the global fetch's, which the providers and
 * `UpstreamError` classify: a connection that cannot be made rejects with
 * `TypeError("fetch failed")` and the network error as its cause; an abort
 * rejects with the signal's reason; a body cut short errors with
 * `TypeError("terminated")`.
 */
export const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const body = init.body
  if (input instanceof Request || (body != null && typeof body !== "string") || init.redirect === "manual") {
    return globalThis.fetch(input, init)
  }
  const url = input instanceof URL ? input : new URL(input)
  const agent = agentFor(url)
  if (agent === undefined) return globalThis.fetch(input, init)
  const signal = init.signal ?? undefined
  if (signal?.aborted === true) return Promise.reject(abortReason(signal))

  return new Promise((resolve, reject) => {
    const options: RequestOptions = {
      method: init.method ?? "GET",
      headers: plainHeaders(init.headers, body ?? undefined),
      agent,
      ...(signal === undefined ? {} : { signal })
    }
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, options, (res) => {
      const status = res.statusCode ?? 500
      if (REDIRECTS.has(status) && res.headers.location !== undefined) {
        res.resume()
        return resolve(globalThis.fetch(input, init))
      }
      const hasBody = !NO_BODY.has(status) && options.method !== "HEAD"
      if (!hasBody) res.resume()
      resolve(
        new Response(hasBody ? bodyOf(res, signal) : null, {
          status,
          statusText: res.statusMessage ?? "",
          headers: responseHeaders(res)
        })
      )
    })
    request.once("error", (cause) => {
      reject(signal?.aborted === true ? abortReason(signal) : new TypeError("fetch failed", { cause }))
    })
    request.end(body ?? undefined)
  })
}
