import { Predicate } from "effect"

/**
 * What went wrong reaching `url`, in words an operator can act on, when
 * `error` is fetch's `TypeError("fetch failed")` (a connection that could not
 * be made or was lost: the cause is Node's or undici's error, which alone
 * says which); undefined for anything else. Names the host and port as
 * configured (never the URL's path, query or user info) and the error's code,
 * which is what to search for.
 */
export const connectionFailure = (url: URL, error: unknown): string | undefined => {
  const cause = networkCause(error)
  if (cause === undefined) return undefined
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80"
  const address = `${url.hostname}:${port}`
  // The Fetch standard's blocked ports: undici refuses them before it connects.
  if (cause.message === "bad port") {
    return `port ${port} is one that fetch never connects to (a "bad port" of the Fetch standard): serve it on another port`
  }
  const code = cause.code
  switch (code) {
    case "ENOTFOUND":
      return `DNS: name not found: ${url.hostname}`
    case "EAI_AGAIN":
      return `DNS: the lookup of ${url.hostname} failed for now (EAI_AGAIN): the resolver did not answer`
    case "ECONNREFUSED":
      return `connection refused by ${address}: nothing listens there`
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
      return `the connection to ${address} was closed before an answer (${code})`
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return `timed out connecting to ${address} (${code})`
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return `timed out waiting for ${address} to answer (${code})`
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `no route to ${address} (${code})`
  }
  if (code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_(?:GET|VERIFY)/.test(code)) {
    return `TLS: the certificate of ${address} is not accepted: ${firstClause(cause.message)} (${code})`
  }
  if (code !== undefined && /^(?:ERR_SSL_|ERR_TLS_|EPROTO$)/.test(code)) {
    const plain = code === "ERR_SSL_WRONG_VERSION_NUMBER" ? ": does it serve plain HTTP (an http:// URL)?" : ""
    return `TLS: the handshake with ${address} failed (${code})${plain}`
  }
  return `cannot reach ${address}: ${firstClause(cause.message)}${code === undefined ? "" : ` (${code})`}`
}

interface NetworkCause {
  readonly message: string
  readonly code: string | undefined
}

// Node's advice after the first clause ("…; if the root CA is installed locally, try running
// Node.js with --use-system-ca") is about Node's flags, not parley's settings.
const firstClause = (message: string) => message.split(/[;\n]/, 1)[0]!.trim()

const codeOf = (error: object): string | undefined => {
  if ("code" in error && Predicate.isString(error.code)) return error.code
  // Both addresses of a name (IPv4 and IPv6) failed: each in `errors`.
  const first = "errors" in error && Array.isArray(error.errors) ? error.errors[0] : undefined
  return Predicate.isObject(first) && "code" in first && Predicate.isString(first.code) ? first.code : undefined
}

const networkCause = (error: unknown): NetworkCause | undefined => {
  if (!(error instanceof TypeError && error.message === "fetch failed")) return undefined
  const cause = error.cause
  return cause instanceof Error
    ? { message: cause.message, code: codeOf(cause) }
    : { message: "fetch failed", code: undefined }
}
