import type Dockerode from "dockerode"
import type { SandboxInfo } from "../Sandbox.ts"
import type { SandboxSettings } from "../SandboxSettings.ts"
import { ensureNetwork } from "./containers.ts"
import { containerSpec } from "./containerSpec.ts"
import { type EngineKind, engineKind } from "./engine.ts"
import { execToEnd } from "./execCommand.ts"

const kinds = new WeakMap<Dockerode, Promise<EngineKind>>()

// Asked once per engine connection; a failed answer is asked again next time.
const kindOf = (docker: Dockerode): Promise<EngineKind> => {
  let kind = kinds.get(docker)
  if (kind === undefined) {
    kind = engineKind(docker)
    kinds.set(docker, kind)
    kind.catch(() => kinds.delete(docker))
  }
  return kind
}

// A desktop's display server listens on its socket in /tmp within a second or so of the container's start.
const DISPLAY_WAIT = "for i in $(seq 100); do [ -S /tmp/.X11-unix/X0 ] && exit 0; sleep 0.1; done; exit 1"

/** Creates and starts the sandbox's container (its display ready, for a desktop); its id. */
export const startSandboxContainer = async (
  docker: Dockerode,
  info: SandboxInfo,
  deployment: string,
  settings: SandboxSettings
): Promise<string> => {
  const kind = await kindOf(docker)
  if (info.network) await ensureNetwork(docker, kind, info.id, deployment)
  const container = await docker.createContainer(containerSpec(info, deployment, settings, kind))
  await container.start()
  if (info.desktop) await waitForDisplay(container)
  return container.id
}

const waitForDisplay = async (container: Dockerode.Container) => {
  if (await execToEnd(container, ["/bin/bash", "-c", DISPLAY_WAIT]) !== 0) {
    throw new Error("the desktop's display server (Xvfb) did not start in the container")
  }
}
