import Dockerode from "dockerode"
import { Effect } from "effect"
import { EngineUnreachable } from "./imageErrors.ts"

/**
 * The container engine, addressed as the docker CLI addresses it: DOCKER_HOST
 * (`unix:///var/run/docker.sock` when unset, or `tcp://HOST:2376`),
 * DOCKER_TLS_VERIFY and DOCKER_CERT_PATH (`ca.pem`, `cert.pem`, `key.pem`);
 * dockerode reads them. Docker Engine and Podman's Docker-compatible service
 * both answer.
 */
export const engineAddress = (): string => {
  const host = process.env["DOCKER_HOST"] || "unix:///var/run/docker.sock"
  if (!host.startsWith("tcp://")) return host
  // As dockerode decides: TLS with DOCKER_TLS_VERIFY=1 or on port 2376, client certificates only from DOCKER_CERT_PATH.
  if (process.env["DOCKER_TLS_VERIFY"] !== "1" && !/:2376\/?$/.test(host)) return `${host} (no TLS)`
  const certificates = process.env["DOCKER_CERT_PATH"]
  return `${host} (TLS, ${
    certificates ? `certificates from ${certificates}` : "no client certificate: set DOCKER_CERT_PATH"
  })`
}

const startHint = "start Docker Engine (`systemctl start docker`, or `dockerd &`) or Podman's service " +
  "(`podman system service --time=0 unix:///run/podman/podman.sock &`), or point DOCKER_HOST at the engine " +
  "(with DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH for one over TLS)"

const reasonOf = (error: unknown): string => {
  const code = (error as { code?: unknown }).code
  if (code === "EACCES") return "this user may not open its socket (run as root, or as a member of the group `docker`)"
  const file = (error as { path?: unknown }).path
  if (code === "ENOENT" && typeof file === "string") {
    return `${file} is missing (DOCKER_CERT_PATH must hold ca.pem, cert.pem and key.pem)`
  }
  if (code === "ENOENT") return "nothing is listening there (no such socket)"
  if (code === "ECONNREFUSED") return "nothing is listening there (connection refused)"
  return error instanceof Error ? error.message : String(error)
}

/** What the engine says it is, for progress lines: `Docker Engine 20.10.24` or `Podman Engine 4.3.1`. */
export interface EngineInfo {
  readonly docker: Dockerode
  readonly address: string
  readonly name: string
}

/** A client of the configured engine, once the engine has answered. */
export const connectEngine = Effect.fn("connectEngine")(function*() {
  const address = engineAddress()
  const unreachable = (error: unknown) =>
    new EngineUnreachable({
      address,
      message: `Cannot reach the container engine at ${address}: ${reasonOf(error)}. To fix: ${startHint}.`
    })
  // dockerode reads DOCKER_CERT_PATH's files as it is made: a missing one throws here.
  const docker = yield* Effect.try({ try: () => new Dockerode(), catch: unreachable })
  const version = yield* Effect.tryPromise({ try: () => docker.version(), catch: unreachable })
  const engine = version.Components?.find((component) => /engine/i.test(component.Name))?.Name ?? "Engine"
  const product = /podman/i.test(engine) ? "Podman Engine" : "Docker Engine"
  return { docker, address, name: `${product} ${version.Version} (API ${version.ApiVersion})` } satisfies EngineInfo
})
