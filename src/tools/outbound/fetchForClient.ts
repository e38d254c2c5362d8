import type { AppConfig } from "../../config/AppConfig.ts"
import { readBody, send } from "../../net/httpClient.ts"
import { configuredUrlPolicy, parseWebUrl, type UrlPolicy } from "./urlPolicy.ts"

/** How the gateway fetches a URL a client named (docs/DESIGN.md §3.20). */
export interface ClientFetchSettings {
  readonly policy: UrlPolicy
  /** A body over this many bytes is refused; reading stops there (`PARLEY_FETCH_MAX_BYTES`). */
  readonly maxBytes: number
  /** For the whole fetch, redirects included (`PARLEY_FETCH_TIMEOUT`). */
  readonly timeoutMs: number
}

/** What a fetch brought back. */
export interface Fetched {
  readonly data: Uint8Array
  readonly mediaType: string | undefined
}

/**
 * A URL the gateway would not fetch, or could not. `reason` reads after
 * "cannot be fetched: " and is safe to show the client: it names the host,
 * never an address the host resolved to.
 */
export class FetchRefused extends Error {
  override readonly name = "FetchRefused"
  readonly reason: string

  constructor(reason: string) {
    super(`cannot be fetched: ${reason}`)
    this.reason = reason
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** As browsers: a chain longer than this is a loop or an evasion. */
const MAX_REDIRECTS = 5

const describe = (error: unknown, timeoutMs: number): string => {
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return `no complete answer within ${timeoutMs / 1000} s`
  }
  // The client's errors carry the network error as `cause`; only its code is safe to repeat (messages hold addresses).
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code
  return typeof code === "string" && /^[A-Z_]+$/.test(code)
    ? `the server could not be reached (${code})`
    : "the server could not be reached"
}

/**
 * GETs `raw` on a client's behalf, through the one outbound policy: http(s)
 * only, each hop's host checked after DNS resolution and connected to at the
 * checked address, at most five redirects (each checked the same way), a
 * timeout, and a body read against the cap (never more than the cap and a
 * chunk in memory). Fails with a FetchRefused, or the signal's reason on abort.
 */
export const fetchForClient = async (
  settings: ClientFetchSettings,
  raw: string,
  signal?: AbortSignal
): Promise<Fetched> => {
  const timeout = AbortSignal.timeout(settings.timeoutMs)
  const bounded = signal === undefined ? timeout : AbortSignal.any([signal, timeout])
  let target: URL | string = parseWebUrl(raw)
  for (let hop = 0;; hop++) {
    if (typeof target === "string") throw new FetchRefused(target)
    const decision = await settings.policy.check(target.hostname)
    if (decision._tag !== "Allowed") throw new FetchRefused(decision.reason)
    let exchange: Awaited<ReturnType<typeof send>>
    try {
      exchange = await send(target, {
        method: "GET",
        headers: { accept: "*/*" },
        signal: bounded,
        address: { address: decision.address, family: decision.address.includes(":") ? 6 : 4 }
      })
    } catch (error) {
      if (signal?.aborted === true) throw error
      throw new FetchRefused(describe(error, settings.timeoutMs))
    }
    const { request, response } = exchange
    const status = response.statusCode ?? 500
    const location = response.headers.location
    if (REDIRECTS.has(status) && location !== undefined) {
      request.destroy()
      if (hop === MAX_REDIRECTS) throw new FetchRefused(`more than ${MAX_REDIRECTS} redirects`)
      target = URL.canParse(location, target) ? parseWebUrl(new URL(location, target).href) : "a redirect to no URL"
      continue
    }
    if (status < 200 || status > 299) {
      request.destroy()
      throw new FetchRefused(`the server answered HTTP ${status}`)
    }
    const tooLarge = new FetchRefused(`larger than ${settings.maxBytes} bytes`)
    if (Number(response.headers["content-length"]) > settings.maxBytes) {
      request.destroy()
      throw tooLarge
    }
    let body: Buffer
    try {
      body = await readBody(exchange, bounded, settings.maxBytes + 1)
    } catch (error) {
      if (signal?.aborted === true) throw error
      throw new FetchRefused(describe(error, settings.timeoutMs))
    }
    if (body.byteLength > settings.maxBytes) throw tooLarge
    return { data: body, mediaType: response.headers["content-type"]?.split(";")[0]?.trim() || undefined }
  }
}

/** Fetches a URL a client named; the settings are bound in. */
export type ClientFetch = (raw: string, signal?: AbortSignal) => Promise<Fetched>

export const makeClientFetch = (settings: ClientFetchSettings): ClientFetch => (raw, signal) =>
  fetchForClient(settings, raw, signal)

/** The gateway's fetch for clients as configured: the tools' outbound policy, `PARLEY_FETCH_*` limits. */
export const configuredClientFetch = (config: AppConfig["Service"]): ClientFetch =>
  makeClientFetch({
    policy: configuredUrlPolicy(config),
    maxBytes: config.fetchMaxBytes,
    timeoutMs: config.fetchTimeoutMs
  })
