import type Dockerode from "dockerode"
import { LABEL, SANDBOX_NETWORK } from "./containerSpec.ts"
import { engineStatus } from "./engine.ts"

/** The containers of one sandbox (there should be one), or of every sandbox, of this deployment: by labels only. */
export const sandboxContainers = (
  docker: Dockerode,
  deployment: string,
  id?: string
): Promise<ReadonlyArray<Dockerode.ContainerInfo>> =>
  docker.listContainers({
    all: true,
    filters: JSON.stringify({
      label: [`${LABEL.deployment}=${deployment}`, id === undefined ? LABEL.sandbox : `${LABEL.sandbox}=${id}`]
    })
  })

/** Removes a container and what it holds (its tmpfs mounts), whatever it runs; gone already is done. */
export const removeContainer = async (docker: Dockerode, containerId: string): Promise<void> => {
  try {
    await docker.getContainer(containerId).remove({ force: true, v: true })
  } catch (error) {
    // 404: gone; 409: another remover is at it.
    const status = engineStatus(error)
    if (status !== 404 && status !== 409) throw error
  }
}

/**
 * The bridge network of sandboxes with `"network": true`, made on first need.
 * Inter-container traffic is off on it (Docker's `enable_icc`), so one
 * sandbox cannot reach another's ports; docs/sandboxes.md says what it
 * reaches, measured on each engine.
 */
export const ensureNetwork = async (docker: Dockerode): Promise<void> => {
  try {
    await docker.getNetwork(SANDBOX_NETWORK).inspect()
    return
  } catch (error) {
    if (engineStatus(error) !== 404) throw error
  }
  try {
    await docker.createNetwork({
      Name: SANDBOX_NETWORK,
      Driver: "bridge",
      CheckDuplicate: true,
      Options: { "com.docker.network.bridge.enable_icc": "false" },
      Labels: { "parley.network": "sandboxes" }
    })
  } catch (error) {
    // Another instance made it meanwhile.
    if (engineStatus(error) !== 409) throw error
  }
}
