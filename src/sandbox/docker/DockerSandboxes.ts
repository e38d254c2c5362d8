import { Effect, Option, Schedule } from "effect"
import type { ProcessResult } from "../runProcess.ts"
import {
  type CreateSandbox,
  newSandboxId,
  outOfReach,
  type SandboxElsewhere,
  type SandboxInfo,
  SandboxNotFound,
  SandboxUnavailable
} from "../Sandbox.ts"
import type { SandboxBackend } from "../SandboxBackend.ts"
import { makeOperations, type ProgramRun } from "../sandboxOperations.ts"
import { SandboxRecords } from "../SandboxRecords.ts"
import { DEFAULT_IMAGE, type SandboxSettings } from "../SandboxSettings.ts"
import { makeSandboxUse } from "../sandboxUse.ts"
import { removeContainer, removeNetwork, sandboxContainers, sandboxNetworks } from "./containers.ts"
import { connectEngine, engineMessage, engineName, engineStatus } from "./engine.ts"
import { ExecRefused, runInContainer } from "./execCommand.ts"
import { LABEL } from "./names.ts"
import { startSandboxContainer } from "./startContainer.ts"

/**
 * The `docker` backend: one long-lived container per sandbox on the engine
 * `DOCKER_HOST` names, found by its labels; commands, files and desktop
 * actions are execs in it. Every instance that names the same engine (and
 * database) reaches every sandbox.
 */
export const makeDockerSandboxes = (settings: SandboxSettings) =>
  Effect.gen(function*() {
    const records = yield* SandboxRecords
    const use = makeSandboxUse(records)
    const { limits } = settings
    const where = engineName(settings.docker.engine)
    const docker = yield* Effect.try({
      try: () => connectEngine(settings.docker.engine),
      catch: (error) => new SandboxUnavailable({ message: error instanceof Error ? error.message : String(error) })
    })
    const deployment = yield* Effect.orDie(records.deployment)
    const failure = (doing: string) => (error: unknown) =>
      new SandboxUnavailable({ message: engineFailure(settings, where, doing, error) })

    // A sandbox's container id, once found by its labels.
    const containers = new Map<string, string>()
    const containerOf = (id: string) =>
      containers.has(id) ? Effect.succeed(containers.get(id)) : Effect.tryPromise({
        try: async () => {
          const found = (await sandboxContainers(docker, deployment, id))[0]?.Id
          if (found !== undefined) containers.set(id, found)
          return found
        },
        catch: failure("look up the sandbox's container")
      })

    const held = (id: string): Effect.Effect<SandboxInfo, SandboxNotFound | SandboxElsewhere> =>
      Effect.flatMap(use.get(id), (info) => {
        const elsewhere = outOfReach(info, "docker", settings.instance)
        return elsewhere === undefined ? Effect.as(use.touch(info, settings.idleMs), info) : Effect.fail(elsewhere)
      })

    /** Deletes the record first (of two removers one wins), then the container. */
    const remove = Effect.fnUntraced(function*(id: string) {
      yield* Effect.orDie(records.remove(id, "docker", null))
      containers.delete(id)
      operations.forget(id)
      const found = yield* Effect.tryPromise({
        try: () => sandboxContainers(docker, deployment, id),
        catch: failure("find the sandbox's container")
      })
      yield* Effect.forEach(found, (container) =>
        Effect.tryPromise({
          try: () => removeContainer(docker, container.Id),
          catch: failure("remove the sandbox's container")
        }))
      yield* Effect.tryPromise({
        try: async () => {
          for (const network of await sandboxNetworks(docker, deployment, id)) await removeNetwork(docker, network.Id)
        },
        catch: failure("remove the sandbox's network")
      })
    })

    // Its container went missing outside parley (`docker rm`, a pruned engine): so has its workspace.
    const lost = (info: SandboxInfo) =>
      Effect.andThen(
        remove(info.id).pipe(Effect.catch((error) => Effect.logWarning(error.message))),
        Effect.fail(
          new SandboxNotFound({
            id: info.id,
            remedy: "Its container is gone from the engine (removed outside parley), so it was deleted; create another."
          })
        )
      )

    const execIn = (containerId: string, info: SandboxInfo, program: ProgramRun) =>
      runInContainer(docker.getContainer(containerId), limits, { ...program, keepBackground: info.desktop })

    const runIn = (info: SandboxInfo, program: ProgramRun): Effect.Effect<
      ProcessResult,
      SandboxNotFound | SandboxUnavailable
    > =>
      Effect.gen(function*() {
        const containerId = yield* containerOf(info.id)
        if (containerId === undefined) return yield* lost(info)
        return yield* execIn(containerId, info, program).pipe(
          Effect.catchTag("ExecRefused", (refused): Effect.Effect<
            ProcessResult,
            SandboxNotFound | SandboxUnavailable
          > => {
            if (refused.status === 404) {
              containers.delete(info.id)
              return lost(info)
            }
            // Stopped (the engine restarted): started again, with its tmpfs workspace empty. Docker answers
            // 409; Podman 500 "can only create exec sessions on running containers: container state improper".
            if (refused.status === 409 || /not running|state improper/i.test(refused.message)) {
              return Effect.tryPromise({
                try: () => docker.getContainer(containerId).start(),
                catch: failure("start the sandbox's container again")
              }).pipe(Effect.andThen(Effect.catchTag(execIn(containerId, info, program), "ExecRefused", refusal)))
            }
            return refusal(refused)
          })
        )
      })

    const refusal = (refused: ExecRefused) =>
      Effect.fail(
        new SandboxUnavailable({
          message: /resource temporarily unavailable|pids/i.test(refused.message)
            ? crowded(limits.processes, refused.message)
            : `The engine at ${where} refused to run the command: ${refused.message}`
        })
      )

    const operations = makeOperations({
      limits,
      display: settings.display,
      held,
      runIn,
      startFailure: (result) => {
        // Nothing ran: the sandbox's processes filled its pids limit before the command could start.
        const reason = result.stderr.text().trim().split("\n")[0] ?? ""
        if (result.exitCode === 0 || result.exitCode === null || result.stdout.total > 0) return undefined
        return /^\/bin\/bash: (line \d+: )?fork: /.test(reason)
          ? new SandboxUnavailable({ message: crowded(limits.processes, reason) })
          : undefined
      }
    })

    const create = Effect.fn("SandboxProvider.create")(function*(input: CreateSandbox) {
      const now = new Date()
      const info: SandboxInfo = {
        id: newSandboxId(),
        ...input,
        backend: "docker",
        instance: null,
        createdAt: now,
        usedAt: now
      }
      // The record comes first: a container with no record is an orphan, which any instance removes.
      yield* Effect.orDie(records.insert(info))
      const started = yield* Effect.exit(Effect.tryPromise({
        try: () => startSandboxContainer(docker, info, deployment, settings),
        catch: failure("start the sandbox's container")
      }))
      if (started._tag === "Success") {
        containers.set(info.id, started.value)
        return info
      }
      yield* remove(info.id).pipe(Effect.catch((error) => Effect.logWarning(error.message)))
      return yield* Effect.failCause(started.cause)
    }, Effect.uninterruptible)

    const destroy = Effect.fn("SandboxProvider.destroy")(function*(id: string) {
      yield* held(id)
      // The engine unreachable, its container stays an orphan, which the sweep below removes later.
      yield* remove(id).pipe(Effect.catch((error) => Effect.logWarning(error.message)))
    })

    const problem = Effect.promise(async () => {
      try {
        await docker.getImage(settings.docker.image).inspect()
        return undefined
      } catch (error) {
        return `sandboxes: ${engineFailure(settings, where, "find the sandbox image", error)}`
      }
    })

    // Containers of this deployment whose record is gone (deleted while the engine was away, or by a
    // create that failed half-way) go; so do sandboxes unused for PARLEY_SANDBOX_IDLE, on any instance.
    const orphans = Effect.gen(function*() {
      const found = yield* Effect.tryPromise(() => sandboxContainers(docker, deployment))
      for (const container of found) {
        const id = container.Labels[LABEL.sandbox] ?? ""
        if (Option.isSome(yield* records.get(id))) continue
        yield* Effect.tryPromise(() => removeContainer(docker, container.Id))
        yield* Effect.logInfo(`Removed container ${container.Id.slice(0, 12)}: its sandbox ${id} has no record`)
      }
      for (const network of yield* Effect.tryPromise(() => sandboxNetworks(docker, deployment))) {
        if (Option.isSome(yield* records.get(network.Labels?.[LABEL.sandbox] ?? ""))) continue
        yield* Effect.tryPromise(() => removeNetwork(docker, network.Id))
      }
    }).pipe(
      Effect.catch((error) =>
        Effect.logWarning(
          `Sandbox containers on ${where} whose record is gone were not looked for: ${engineMessage(error.cause)}`
        )
      )
    )
    yield* Effect.forkScoped(Effect.repeat(orphans, Schedule.spaced(settings.reclaimIntervalMs)))
    yield* use.reclaimIdle(settings, (info) => remove(info.id))
    yield* Effect.forkScoped(
      Effect.flatMap(problem, (said) => said === undefined ? Effect.void : Effect.logWarning(said))
    )

    return {
      name: "docker",
      instance: settings.instance,
      display: settings.display,
      create,
      get: use.get,
      list: Effect.orDie(records.list),
      problem,
      destroy,
      run: operations.run,
      readFile: operations.readFile,
      writeFile: operations.writeFile,
      desktop: operations.desktop
    } satisfies SandboxBackend
  })

const crowded = (processes: number, reason: string) =>
  `The command could not start: the sandbox is at its limit of ${processes} processes (${reason}). ` +
  "Let its running commands finish or stop programs it left running in the background, then retry."

/** What went wrong talking to the engine, with what to do about it. */
const engineFailure = (settings: SandboxSettings, where: string, doing: string, error: unknown): string => {
  const said = engineMessage(error)
  const { image } = settings.docker
  if (engineStatus(error) === 404 && /image/i.test(said)) {
    return `the image ${image} is not on the engine at ${where}: ` + (image === DEFAULT_IMAGE
      ? "build it with `npx parley sandbox image`"
      : "build or load it there (PARLEY_SANDBOX_IMAGE; `npx parley sandbox image` builds the default one)")
  }
  if (engineStatus(error) === undefined && /ECONNREFUSED|ENOENT|EACCES|ETIMEDOUT|EHOSTUNREACH/.test(said)) {
    return `cannot reach the container engine at ${where} (${said}): start it, or set DOCKER_HOST to where it listens`
  }
  return `the engine at ${where} could not ${doing}: ${said}`
}
