import type Dockerode from "dockerode"
import { Effect, Layer, ManagedRuntime } from "effect"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { SandboxBackend } from "../src/sandbox/SandboxBackend.ts"
import { SandboxProvider } from "../src/sandbox/SandboxProvider.ts"
import { makeSettings } from "../src/sandbox/SandboxSettings.ts"
import * as Database from "../src/store/Database.ts"
import { engineClient, engines, type TestEngine } from "../test/sandbox/engines.ts"
import { testLimits } from "../test/sandbox/support.ts"
import type { Row } from "./report.ts"
import type { Settings } from "./settings.ts"
import { median } from "./stats.ts"

/**
 * The sandbox figures (issue 33), in this process: a command through the
 * `docker` backend beside a bare exec of the same program through the Engine
 * API in the same container, alternated (target: within 15 ms), on each
 * engine the tests use; the creation of a sandbox on each backend; and a
 * command through the `local` backend. An engine that is not there is left
 * out, and said so.
 */

const COMMAND_TARGET_MS = 15

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now()
  await work()
  return performance.now() - started
}

/** `true` run as an exec, its output read to the end and its exit code asked: the least any engine client does. */
const bareExec = async (container: Dockerode.Container) => {
  const exec = await container.exec({ Cmd: ["true"], AttachStdout: true, AttachStderr: true })
  const stream = await exec.start({ hijack: true, stdin: false })
  await new Promise<void>((resolve) => {
    stream.resume()
    stream.once("end", resolve)
  })
  if ((await exec.inspect()).ExitCode !== 0) throw new Error("a bare exec of true failed")
}

type Sandboxes = ManagedRuntime.ManagedRuntime<SandboxProvider, unknown>

const on = <A, E>(runtime: Sandboxes, use: (sandboxes: SandboxBackend) => Effect.Effect<A, E>) =>
  runtime.runPromise(Effect.flatMap(Effect.service(SandboxProvider), use))

const plain = { ownerKeyId: null, desktop: false, network: false }

/** Creation times (ms) of `count` sandboxes, and the last one's id for the command figures. */
const creations = async (runtime: Sandboxes, count: number) => {
  const times: Array<number> = []
  let id = ""
  for (let i = 0; i < count; i++) {
    times.push(await timed(async () => (id = (await on(runtime, (sandboxes) => sandboxes.create(plain))).id)))
  }
  return { p50: median(times), id }
}

const runTrue = (runtime: Sandboxes, id: string) => async () => {
  const result = await on(runtime, (sandboxes) => sandboxes.run(id, { command: "true" }))
  if (result.exitCode !== 0) throw new Error(`true through the backend failed: ${result.stderr}`)
}

const sizes = (settings: Settings) =>
  settings.name === "full" ? { creations: 10, commands: 60, warmup: 10 } : { creations: 2, commands: 6, warmup: 2 }

const dockerFigures = async (engine: TestEngine, folder: string, settings: Settings): Promise<Array<Row>> => {
  const { commands, creations: count, warmup } = sizes(settings)
  const runtime = ManagedRuntime.make(
    SandboxProvider.layerDocker(makeSettings({ backend: "docker", engine: engine.address, limits: testLimits })).pipe(
      Layer.provide(Database.layerFromUrl(`sqlite:${join(folder, `${engine.name.replace(/\W/g, "")}.db`)}`))
    )
  )
  try {
    const created = await creations(runtime, count)
    const docker = engineClient(engine)
    const [found] = await docker.listContainers({ filters: { label: [`parley.sandbox=${created.id}`] } })
    const container = docker.getContainer(found!.Id)
    const backend = runTrue(runtime, created.id)
    for (let i = 0; i < warmup; i++) await Promise.all([backend(), bareExec(container)])
    const through: Array<number> = []
    const bare: Array<number> = []
    // Alternated one by one, so a busy moment of the machine weighs on both alike.
    for (let i = 0; i < commands; i++) {
      through.push(await timed(backend))
      bare.push(await timed(() => bareExec(container)))
    }
    const [p50Through, p50Bare] = [median(through), median(bare)]
    return [
      { figure: `sandbox created, docker on ${engine.name}, p50`, parley: created.p50, unit: "ms" },
      { figure: `command \`true\`, docker on ${engine.name}, p50`, direct: p50Bare, parley: p50Through, unit: "ms" },
      {
        figure: `command added over a bare exec, ${engine.name}`,
        parley: p50Through - p50Bare,
        unit: "ms",
        target: { limit: COMMAND_TARGET_MS }
      }
    ]
  } finally {
    await on(
      runtime,
      (sandboxes) =>
        Effect.flatMap(sandboxes.list, (all) => Effect.forEach(all, (sandbox) => sandboxes.destroy(sandbox.id)))
    )
    await runtime.dispose()
  }
}

const localFigures = async (folder: string, settings: Settings): Promise<Array<Row>> => {
  const { commands, creations: count, warmup } = sizes(settings)
  const root = join(folder, "local", "sandboxes")
  const runtime = ManagedRuntime.make(
    SandboxProvider.layerLocal(makeSettings({ root, limits: testLimits })).pipe(
      Layer.provide(Database.layerFromUrl(`sqlite:${join(folder, "local.db")}`))
    )
  )
  try {
    const created = await creations(runtime, count)
    const backend = runTrue(runtime, created.id)
    for (let i = 0; i < warmup; i++) await backend()
    const through: Array<number> = []
    for (let i = 0; i < commands; i++) through.push(await timed(backend))
    return [
      { figure: "sandbox created, local, p50", parley: created.p50, unit: "ms" },
      { figure: "command `true`, local, p50", parley: median(through), unit: "ms" }
    ]
  } finally {
    await runtime.dispose()
  }
}

export const sandboxFigures = async (settings: Settings, log: (text: string) => void): Promise<Array<Row>> => {
  const folder = mkdtempSync(join(tmpdir(), "parley-bench-sandboxes-"))
  // Local sandboxes run as users of their own, who must pass the folder.
  chmodSync(folder, 0o711)
  try {
    const rows = await localFigures(folder, settings)
    for (const engine of engines) {
      if (engine.missing !== undefined) {
        log(`sandboxes: ${engine.missing}; its figures are left out`)
        continue
      }
      log(`sandboxes on ${engine.name}`)
      rows.push(...await dockerFigures(engine, folder, settings))
    }
    return rows
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
