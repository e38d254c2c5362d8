import { lookup as dnsLookup } from "node:dns/promises"
import { isIP } from "node:net"
import type { AppConfig } from "../../config/AppConfig.ts"
import { nonPublicKind } from "./addressRanges.ts"

export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** Resolves a host name to every address it has (`node:dns` by default; tests pass their own). */
export type Lookup = (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>

export interface UrlPolicySettings {
  /** Private, loopback and link-local addresses are reachable (`PARLEY_OUTBOUND_ALLOW_PRIVATE`). */
  readonly allowPrivate: boolean
  /** Host names or IP literals reachable whatever they resolve to (`PARLEY_OUTBOUND_ALLOWED_HOSTS`). */
  readonly allowedHosts: ReadonlyArray<string>
  readonly lookup?: Lookup | undefined
}

/** Where a connection to a host may go: the checked address to connect to, or why not. */
export type HostDecision =
  | { readonly _tag: "Allowed"; readonly address: string }
  | { readonly _tag: "Refused"; readonly reason: string }
  | { readonly _tag: "Unresolved"; readonly reason: string }

export interface UrlPolicy {
  readonly check: (hostname: string) => Promise<HostDecision>
}

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/** `[::1]` (URL form) and `::1` are the same host; names compare case-insensitively. */
export const normalizeHost = (hostname: string): string => hostname.replace(/^\[|\]$/g, "").toLowerCase()

/**
 * The outbound policy of everything that goes where a request says (the
 * browser, webhooks, a partner API named in tool context, the files of
 * message parts: `fetchForClient.ts`). A host is checked after DNS
 * resolution: it is refused when any of its addresses is not public (a
 * name with one private answer could be steered there), unless the server
 * allows private addresses or lists the host. The caller connects to the
 * returned address, so a second resolution cannot swap in another one.
 */
export const makeUrlPolicy = (settings: UrlPolicySettings): UrlPolicy => {
  const allowed = new Set(settings.allowedHosts.map(normalizeHost))
  const lookup = settings.lookup ?? systemLookup
  return {
    check: async (hostname) => {
      const host = normalizeHost(hostname)
      let addresses: ReadonlyArray<ResolvedAddress>
      if (isIP(host) !== 0) {
        addresses = [{ address: host, family: isIP(host) }]
      } else {
        try {
          addresses = await lookup(host)
        } catch {
          return { _tag: "Unresolved", reason: `cannot resolve host ${host}` }
        }
      }
      const first = addresses[0]
      if (first === undefined) return { _tag: "Unresolved", reason: `host ${host} has no address` }
      if (settings.allowPrivate || allowed.has(host)) return { _tag: "Allowed", address: first.address }
      for (const { address } of addresses) {
        const kind = nonPublicKind(address)
        if (kind === undefined) continue
        // The resolved address itself stays out of the reason: it would map the internal network for the model.
        return {
          _tag: "Refused",
          reason: address === host ? `${host} is ${kind} address` : `host ${host} resolves to ${kind} address`
        }
      }
      return { _tag: "Allowed", address: first.address }
    }
  }
}

/** The policy as configured (`PARLEY_OUTBOUND_ALLOW_PRIVATE`, `PARLEY_OUTBOUND_ALLOWED_HOSTS`). */
export const configuredUrlPolicy = (config: AppConfig["Service"]): UrlPolicy =>
  makeUrlPolicy({ allowPrivate: config.outboundAllowPrivate ?? false, allowedHosts: config.outboundAllowedHosts ?? [] })

const webSchemes = new Set(["http:", "https:"])

/** A URL the browser may be sent to: absolute http(s) only (no file:, chrome:, data:, javascript:…). */
export const parseWebUrl = (raw: string): URL | string => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return `not an absolute URL: ${raw}`
  }
  return webSchemes.has(url.protocol) ? url : `only http and https URLs are allowed, not ${url.protocol}`
}
