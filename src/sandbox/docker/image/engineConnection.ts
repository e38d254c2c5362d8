import type Dockerode from "dockerode"
import { Effect, Option } from "effect"
import { engineAddress } from "../../../config/SandboxConfig.ts"
import { DEFAULT_ENGINE } from "../../SandboxSettings.ts"
import { connectEngine as connectAt, engineName } from "../engine.ts"
import { EngineUnreachable } from "./imageErrors.ts"

const startHint = "start Docker Engine (`systemctl start docker`, or `dockerd &`) or Podman's service " +
  "(`podman system service --time=0 unix:///run/podman/podman.sock &`), or point DOCKER_HOST at the engine " +
  "(with DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH for one over TLS)"

const reasonOf = (error: unknown): string => {
  const code = (error as { code?: unknown }).code
  if (code === "EACCES") return "this user may not open its socket (run as root, or as a member of the group `docker`)"
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

/**
 * A client of the engine the `docker` backend uses (`DOCKER_HOST`,
 * `DOCKER_TLS_VERIFY`, `DOCKER_CERT_PATH`, read as the gateway reads them,
 * through `engine.ts`), once the engine has answered: the image is built
 * where the sandboxes will start from it.
 */
export const connectEngine = Effect.fn("connectEngine")(function*() {
  const configured = Option.getOrElse(
    yield* Effect.mapError(engineAddress, (error) =>
      new EngineUnreachable({
        address: "DOCKER_HOST",
        message: `DOCKER_HOST, DOCKER_TLS_VERIFY or DOCKER_CERT_PATH cannot be read (${error.message}): fix or unset it`
      })),
    () => DEFAULT_ENGINE
  )
  const address = engineName(configured)
  const unreachable = (error: unknown) =>
    new EngineUnreachable({
      address,
      message: `Cannot reach the container engine at ${address}: ${reasonOf(error)}. To fix: ${startHint}.`
    })
  // A TLS engine's certificates are read as the client is made: one missing throws here, naming it.
  const docker = yield* Effect.try({ try: () => connectAt(configured), catch: unreachable })
  const version = yield* Effect.tryPromise({ try: () => docker.version(), catch: unreachable })
  const engine = version.Components?.find((component) => /engine/i.test(component.Name))?.Name ?? "Engine"
  const product = /podman/i.test(engine) ? "Podman Engine" : "Docker Engine"
  return { docker, address, name: `${product} ${version.Version} (API ${version.ApiVersion})` } satisfies EngineInfo
})
