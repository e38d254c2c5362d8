import { describe, it } from "@effect/vitest"
import type Dockerode from "dockerode"
import { Effect, Layer } from "effect"
import { join } from "node:path"
import type { EngineAddress } from "../../src/config/SandboxConfig.ts"
import { connectEngine } from "../../src/sandbox/docker/engine.ts"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { DEFAULT_IMAGE, makeSettings, type SandboxLimits } from "../../src/sandbox/SandboxSettings.ts"
import * as Database from "../../src/store/Database.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { testLimits } from "./support.ts"

/**
 * The engines the `docker` backend is tested on (docs/testing.md): Docker
 * Engine and Podman's Docker-compatible service, at the sockets the
 * environment names. Their processes are checked in this host's /proc, so
 * they run on this host. In CI (`CI=true`) a missing engine or image fails
 * the suite loudly; elsewhere those tests are skipped with the reason.
 */
export interface TestEngine {
  readonly name: string
  readonly address: EngineAddress
  /** Why its tests cannot run here (unreachable, no image), or undefined. */
  readonly missing: string | undefined
}

export const SANDBOX_IMAGE = process.env.PARLEY_SANDBOX_IMAGE ?? DEFAULT_IMAGE

const probe = async (name: string, host: string): Promise<TestEngine> => {
  const address: EngineAddress = { host, tlsVerify: false }
  try {
    const docker = connectEngine(address)
    await docker.ping()
    try {
      await docker.getImage(SANDBOX_IMAGE).inspect()
      return { name, address, missing: undefined }
    } catch {
      return { name, address, missing: `${name} at ${host} has no image ${SANDBOX_IMAGE} (npx parley sandbox image)` }
    }
  } catch (error) {
    return { name, address, missing: `${name} is unreachable at ${host} (${String(error)})` }
  }
}

export const dockerEngine = await probe(
  "Docker Engine",
  process.env.PARLEY_TEST_DOCKER_HOST ?? "unix:///var/run/docker.sock"
)
export const podmanEngine = await probe(
  "Podman",
  process.env.PARLEY_TEST_PODMAN_HOST ?? "unix:///run/podman/podman.sock"
)
export const engines: ReadonlyArray<TestEngine> = [dockerEngine, podmanEngine]

/** `describe` for tests that need `engine`: loud in CI when it is missing, skipped with the reason elsewhere. */
export const describeEngine = (engine: TestEngine, name: string, body: () => void): void => {
  if (engine.missing === undefined) {
    describe(name, body)
  } else if (process.env.CI === "true") {
    describe(name, () => {
      it(`needs ${engine.name}`, () => {
        throw new Error(`${engine.missing}; CI must provide it`)
      })
    })
  } else {
    describe.skip(`${name} (skipped: ${engine.missing}; required when CI=true)`, body)
  }
}

/** The engine's client, for what a test checks behind the backend's back. */
export const engineClient = (engine: TestEngine): Dockerode => connectEngine(engine.address)

/** `docker` sandboxes on `engine` with the test limits, over whatever database is given. */
export const dockerSandboxesOver = (
  engine: TestEngine,
  overrides: Partial<SandboxLimits> = {},
  settings: Omit<Parameters<typeof makeSettings>[0], "limits"> = {}
) =>
  SandboxProvider.layerDocker(makeSettings({
    backend: "docker",
    engine: engine.address,
    image: SANDBOX_IMAGE,
    limits: { ...testLimits, ...overrides },
    ...settings
  }))

/** `docker` sandboxes on `engine`, their records in a SQLite file under `folder`. */
export const dockerSandboxes = (
  engine: TestEngine,
  folder: string,
  overrides: Partial<SandboxLimits> = {},
  settings: Omit<Parameters<typeof makeSettings>[0], "limits"> = {}
) =>
  dockerSandboxesOver(engine, overrides, settings).pipe(
    Layer.provide(Database.layerFromUrl(`sqlite:${join(folder, "parley.db")}`))
  )

/**
 * A test gateway whose sandboxes are `docker` ones on `engine` (its database
 * in memory); closing it removes the containers of the sandboxes it made.
 */
export const startDockerGateway = async (engine: TestEngine): Promise<TestGateway> => {
  const gateway = await startGateway({ sandboxes: dockerSandboxesOver(engine) })
  const sandboxes = gateway.service(SandboxProvider)
  const removeAll = Effect.flatMap(
    sandboxes.list,
    (all) => Effect.forEach(all, (sandbox) => Effect.ignore(sandboxes.destroy(sandbox.id)), { concurrency: 4 })
  )
  return {
    ...gateway,
    close: async () => {
      await Effect.runPromise(removeAll)
      await gateway.close()
    }
  }
}
