import Dockerode from "dockerode"
import { readFileSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import type { EngineAddress } from "../../config/SandboxConfig.ts"

/**
 * The connection to a Docker Engine API (Docker Engine, or Podman's
 * Docker-compatible service), addressed as the docker CLI addresses it
 * (`DOCKER_HOST`, `DOCKER_TLS_VERIFY`, `DOCKER_CERT_PATH`; `EngineAddress`).
 * Throws, naming the variable to fix, for an address it cannot use.
 */
export const connectEngine = (address: EngineAddress): Dockerode => {
  const url = parseHost(address.host)
  if (url.protocol === "unix:") return new Dockerode({ socketPath: url.pathname })
  const port = url.port === "" ? (address.tlsVerify ? 2376 : 2375) : Number(url.port)
  if (!address.tlsVerify) return new Dockerode({ host: url.hostname, port, protocol: "http" })
  const certs = address.certPath ?? join(homedir(), ".docker")
  const read = (name: string) => {
    try {
      return readFileSync(join(certs, name))
    } catch (error) {
      throw new Error(`DOCKER_TLS_VERIFY is set but ${join(certs, name)} cannot be read (DOCKER_CERT_PATH): ${error}`, {
        cause: error
      })
    }
  }
  return new Dockerode({
    host: url.hostname,
    port,
    protocol: "https",
    ca: read("ca.pem"),
    cert: read("cert.pem"),
    key: read("key.pem")
  })
}

const parseHost = (host: string): URL => {
  let url: URL
  try {
    url = new URL(host)
  } catch {
    throw new Error(`DOCKER_HOST "${host}" is not an address: use unix:///path/to/socket or tcp://HOST:PORT`)
  }
  if (url.protocol === "unix:" || url.protocol === "tcp:") return url
  throw new Error(
    `DOCKER_HOST "${host}": parley speaks to an engine over unix:// or tcp:// (with DOCKER_TLS_VERIFY=1 for TLS), ` +
      `not ${url.protocol.replace(/:$/, "")}://`
  )
}

/** The address as the operator wrote it, for messages (it holds no secret: certificates are files). */
export const engineName = (address: EngineAddress): string => `${address.host}${address.tlsVerify ? " (TLS)" : ""}`

/** Which engine answers: Podman's compatible service differs in a few details (tmpfs ownership). */
export type EngineKind = "docker" | "podman"

export const engineKind = async (docker: Dockerode): Promise<EngineKind> => {
  const version = await docker.version()
  const components = (version as { readonly Components?: ReadonlyArray<{ readonly Name?: string }> }).Components
  return components?.some((component) => /podman/i.test(component.Name ?? "")) ? "podman" : "docker"
}

/** The engine's answer to a failed call, as one line: its own message when it sent one. */
export const engineMessage = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return String(error)
  const { json, message, statusCode } = error as {
    readonly json?: { readonly message?: unknown }
    readonly message?: unknown
    readonly statusCode?: unknown
  }
  const said = typeof json?.message === "string" ? json.message : typeof message === "string" ? message : ""
  return typeof statusCode === "number" ? `${said} (HTTP ${statusCode})` : said || String(error)
}

/** The engine's HTTP status of a failed call, if it answered. */
export const engineStatus = (error: unknown): number | undefined => {
  const status = typeof error === "object" && error !== null
    ? (error as { statusCode?: unknown }).statusCode
    : undefined
  return typeof status === "number" ? status : undefined
}
