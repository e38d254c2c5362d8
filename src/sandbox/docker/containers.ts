import type Dockerode from "dockerode"
import { type EngineKind, engineStatus } from "./engine.ts"
import { LABEL, networkOf } from "./names.ts"

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

export const ensureNetwork = async (
  docker: Dockerode,
  kind: EngineKind,
  id: string,
  deployment: string
): Promise<string> => {
  const name = networkOf(kind, id)
  try {
    await docker.getNetwork(name).inspect()
    return name
  } catch (error) {
    if (engineStatus(error) !== 404) throw error
  }
  try {
    await docker.createNetwork({
      Name: name,
      Driver: "bridge",
      CheckDuplicate: true,
      ...kind === "docker"
        ? { Options: { "com.docker.network.bridge.enable_icc": "false" }, Labels: { "parley.network": "sandboxes" } }
        : { Labels: { [LABEL.sandbox]: id, [LABEL.deployment]: deployment } }
    })
  } catch (error) {
    // Another instance made it meanwhile.
    if (engineStatus(error) !== 409) throw error
  }
  return name
}

/** The networks made for one sandbox (Podman's), or for every sandbox of this deployment. */
export const sandboxNetworks = (
  docker: Dockerode,
  deployment: string,
  id?: string
): Promise<ReadonlyArray<Dockerode.NetworkInspectInfo>> =>
  docker.listNetworks({
    filters: JSON.stringify({
      label: [`${LABEL.deployment}=${deployment}`, id === undefined ? LABEL.sandbox : `${LABEL.sandbox}=${id}`]
    })
  })

/** Removes a network; gone already, or still in use by a container on its way out, is left to the next sweep. */
export const removeNetwork = async (docker: Dockerode, networkId: string): Promise<void> => {
  try {
    await docker.getNetwork(networkId).remove()
  } catch (error) {
    const status = engineStatus(error)
    if (status !== 404 && status !== 409) throw error
  }
}
