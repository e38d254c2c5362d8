import Dockerode from "dockerode"
import { existsSync } from "node:fs"

/**
 * The container engines the docker-backend tests run on: Docker Engine and
 * Podman's Docker-compatible service, where scripts/engines.sh starts them.
 * A missing one skips its tests, except under CI=true, where it fails them.
 */
export interface TestEngine {
  readonly name: "Docker Engine" | "Podman"
  /** The DOCKER_HOST that reaches it. */
  readonly host: string
}

const ENGINES: ReadonlyArray<TestEngine & { readonly socket: string }> = [
  { name: "Docker Engine", host: "unix:///var/run/docker.sock", socket: "/var/run/docker.sock" },
  { name: "Podman", host: "unix:///run/podman/podman.sock", socket: "/run/podman/podman.sock" }
]

/** A client of one engine. */
export const engineClient = (engine: TestEngine): Dockerode =>
  new Dockerode({ socketPath: engine.host.replace(/^unix:\/\//, "") })

const answers = async (engine: TestEngine): Promise<boolean> =>
  existsSync(engine.host.replace(/^unix:\/\//, "")) && await engineClient(engine).ping().then(() => true, () => false)

/** The engines that answer; under CI=true every one must. */
export const testEngines = async (): Promise<ReadonlyArray<TestEngine>> => {
  const up: Array<TestEngine> = []
  for (const engine of ENGINES) {
    if (await answers(engine)) up.push({ name: engine.name, host: engine.host })
    else if (process.env["CI"] === "true") {
      throw new Error(`${engine.name} does not answer at ${engine.host}: scripts/engines.sh installs and starts it`)
    }
  }
  return up
}
