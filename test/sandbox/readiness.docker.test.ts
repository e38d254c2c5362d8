import { Context, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { describe, expect, it } from "vitest"
import { makeGateway } from "../../src/app/gateway.ts"
import { AppConfig } from "../../src/config/AppConfig.ts"
import type { EngineAddress } from "../../src/config/SandboxConfig.ts"
import { ToolRegistry } from "../../src/tools/ToolRegistry.ts"
import { describeEngine, dockerEngine, SANDBOX_IMAGE } from "./engines.ts"

/** round4 S: with the `docker` backend, `/ready` says when the engine or its image is missing, and what to do. */

/** The reasons `/ready` gives for a gateway with docker sandboxes of this engine and image (and no provider). */
const reasons = async (engine: EngineAddress, image: string) => {
  const runtime = ManagedRuntime.make(makeGateway({
    config: AppConfig.layerTest({ sandbox: { backend: "docker", engine, image, limits: {} } }),
    tools: ToolRegistry.layerTest([]),
    quiet: true
  }))
  try {
    const address = Context.get(await runtime.context(), HttpServer.HttpServer).address
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    const response = await fetch(`http://127.0.0.1:${address.port}/ready`)
    expect(response.status).toBe(503)
    return (await response.json()).reasons
  } finally {
    await runtime.dispose()
  }
}

const providers = "providers: no model provider is configured"

describe("/ready with docker sandboxes", () => {
  it("names an engine it cannot reach, and where to point DOCKER_HOST", async () => {
    const host = "unix:///tmp/parley-no-engine-here.sock"
    expect(await reasons({ host, tlsVerify: false }, SANDBOX_IMAGE)).toEqual([
      providers,
      `sandboxes: cannot reach the container engine at ${host} (connect ENOENT /tmp/parley-no-engine-here.sock): ` +
      "start it, or set DOCKER_HOST to where it listens"
    ])
  })
})

describeEngine(dockerEngine, "/ready with docker sandboxes on Docker Engine", () => {
  it("names a missing image and the command that builds the default one; a present one is no reason", async () => {
    expect(await reasons(dockerEngine.address, SANDBOX_IMAGE)).toEqual([providers])
    const absent = `parley-sandbox:absent-${Date.now()}`
    expect(await reasons(dockerEngine.address, absent)).toEqual([
      providers,
      `sandboxes: the image ${absent} is not on the engine at ${dockerEngine.address.host}: build or load it there ` +
      "(PARLEY_SANDBOX_IMAGE; `npx parley sandbox image` builds the default one)"
    ])
  })
})
