import { Effect, Option, Schedule, Semaphore } from "effect"
import { join } from "node:path"
import { commandResult } from "./commandResult.ts"
import { checkAction, type DesktopAction, xdotoolArgs } from "./desktopActions.ts"
import type { DesktopJail } from "./desktopClaim.ts"
import { desktopResult } from "./desktopResult.ts"
import { makeDesktopSessions } from "./DesktopSessions.ts"
import { foldersOf, prepareFolders, removeFolders } from "./folders.ts"
import { findInJail, gatewayIsRoot } from "./jail.ts"
import { jailFailure, probeFailure } from "./jailFailure.ts"
import { findHostPrograms, type HostPrograms, type JailedCommand, runJailed } from "./runJailed.ts"
import { bytesOf } from "./runProcess.ts"
import {
  type CreateSandbox,
  InvalidDesktopAction,
  isSandboxId,
  newSandboxId,
  type RunCommand,
  SandboxElsewhere,
  SandboxFileError,
  type SandboxInfo,
  SandboxNotFound,
  SandboxUnavailable
} from "./Sandbox.ts"
import type { SandboxBackend } from "./SandboxBackend.ts"
import type { SandboxSettings } from "./SandboxSettings.ts"
import { SandboxStore } from "./SandboxStore.ts"
import { stopSandboxProcesses } from "./stopSandboxProcesses.ts"
import { makeWorkspaceDisks, unmountWorkspace } from "./workspaceDisks.ts"

const MiB = 1024 * 1024
const FILE_LIMIT = 64 * MiB
const DESKTOP_ACTION_TIMEOUT_MS = 60_000
const desktopPrograms = ["Xvfb", "xdotool", "xwd"]

/**
 * The embedded backend: each command runs in a fresh bubblewrap jail over
 * the sandbox's workspace folder; a desktop sandbox also keeps a jail
 * running Xvfb whose namespaces its commands and desktop actions join.
 */
export const makeLocalSandboxes = (settings: SandboxSettings) =>
  Effect.gen(function*() {
    const store = yield* SandboxStore
    const { limits } = settings
    let programs: HostPrograms | undefined
    const hostPrograms = Effect.suspend(() =>
      programs !== undefined ? Effect.succeed(programs) : Effect.tap(findHostPrograms, (found) =>
        Effect.sync(() => {
          programs = found
        }))
    )
    const desktops = makeDesktopSessions(limits, settings.display)
    const disks = limits.diskBytes > 0 && gatewayIsRoot() ? makeWorkspaceDisks(limits.diskBytes) : undefined
    if (disks !== undefined) yield* Effect.addFinalizer(() => Effect.promise(disks.unmountAll))

    const get = (id: string): Effect.Effect<SandboxInfo, SandboxNotFound> =>
      isSandboxId(id)
        ? Effect.flatMap(
          Effect.orDie(store.get(id)),
          Option.match({
            onNone: () => Effect.fail(new SandboxNotFound({ id })),
            onSome: Effect.succeed
          })
        )
        : Effect.fail(new SandboxNotFound({ id }))

    // Its workspace is on the disk of the instance that created it (docs/DESIGN.md §8).
    const held = (id: string): Effect.Effect<SandboxInfo, SandboxNotFound | SandboxElsewhere> =>
      Effect.filterOrFail(
        get(id),
        (info) => info.instance === settings.instance,
        (info) => new SandboxElsewhere({ sandboxId: id, instance: info.instance })
      )

    // Each command holds a few processes of the sandbox's process limit; past it the kernel refuses new
    // namespaces. So commands of one sandbox take turns, `commandsAtOnce` at a time.
    const permits = new Map<string, Semaphore.Semaphore>()
    const permitsOf = (id: string) => {
      let semaphore = permits.get(id)
      if (semaphore === undefined) permits.set(id, semaphore = Semaphore.makeUnsafe(limits.commandsAtOnce))
      return semaphore
    }

    /** `use` on the sandbox in its turn; it is looked up again then, as it may have been removed meanwhile. */
    const inTurn = <A, E>(id: string, use: (info: SandboxInfo) => Effect.Effect<A, E>) =>
      Effect.flatMap(held(id), () => permitsOf(id).withPermit(Effect.flatMap(held(id), use)))

    /** Runs argv in a jail of the sandbox (joining its desktop when it has one). */
    const jailed = Effect.fnUntraced(function*(
      info: SandboxInfo,
      argv: JailedCommand["argv"],
      options: {
        readonly timeoutMs: number
        readonly stdin?: Uint8Array | undefined
        readonly keep: { readonly headBytes: number; readonly tailBytes: number }
        readonly stopAfterBytes: number
      }
    ) {
      const found = yield* hostPrograms
      const folders = yield* prepareFolders(settings.root, info, disks)
      const run = (session: DesktopJail | undefined) =>
        runJailed(found, limits, {
          uid: info.uid,
          folders,
          network: info.network,
          display: info.desktop,
          session,
          argv,
          ...options
        })
      return yield* info.desktop ? desktops.use(found, { ...info, folders }, run) : run(undefined)
    })

    const create = Effect.fn("SandboxProvider.create")(function*(input: CreateSandbox) {
      if (input.desktop) {
        const missing = desktopPrograms.filter((program) => findInJail(program) === undefined)
        if (missing.length > 0) {
          return yield* new SandboxUnavailable({
            message: `Desktop sandboxes need ${missing.join(", ")}: run \`apt-get install xvfb xdotool x11-apps\``
          })
        }
      }
      const id = newSandboxId()
      const uid = yield* Effect.orDie(store.allocateUid(id))
      const info: SandboxInfo = { id, ...input, createdAt: new Date(), uid, instance: settings.instance }
      // A sandbox that is listed works: one trivial command proves the jail on this host.
      const probe = yield* Effect.exit(jailed({ ...info, desktop: false }, ["/bin/true"], {
        timeoutMs: 10_000,
        keep: { headBytes: 4096, tailBytes: 0 },
        stopAfterBytes: MiB
      }))
      if (probe._tag === "Failure" || probe.value.exitCode !== 0) {
        yield* unmountWorkspace(foldersOf(settings.root, id).workspace)
        yield* removeFolders(settings.root, id)
        yield* store.releaseUid(uid)
        if (probe._tag === "Failure") return yield* Effect.failCause(probe.cause)
        return yield* new SandboxUnavailable({ message: yield* probeFailure(settings.root, probe.value) })
      }
      yield* Effect.orDie(store.insert(info))
      return info
    })

    const destroy = Effect.fn("SandboxProvider.destroy")(function*(id: string) {
      yield* held(id)
      // Whoever started them (this process or another), the sandbox's jails end before its files go.
      yield* stopSandboxProcesses(join(settings.root, id))
      yield* desktops.stop(id)
      yield* unmountWorkspace(foldersOf(settings.root, id).workspace)
      yield* Effect.orDie(store.remove(id))
      permits.delete(id)
    })

    const run = Effect.fn("SandboxProvider.run")(function*(id: string, command: RunCommand) {
      const timeoutMs = Math.min(Math.max(1, command.timeoutMs ?? limits.defaultTimeoutMs), limits.maxTimeoutMs)
      const result = yield* inTurn(id, (info) =>
        jailed(info, { bashScript: command.command }, {
          timeoutMs,
          stdin: command.stdin,
          keep: { headBytes: limits.outputHeadBytes, tailBytes: limits.outputTailBytes },
          stopAfterBytes: limits.outputStopBytes
        }))
      const failure = jailFailure(result, limits)
      if (failure !== undefined) return yield* failure
      return commandResult(result, timeoutMs, limits.outputStopBytes)
    })

    const fileCommand = (id: string, script: string, path: string, stdin?: Uint8Array) =>
      inTurn(id, (info) =>
        jailed(info, ["/bin/bash", "-c", script, "parley", path], {
          timeoutMs: limits.defaultTimeoutMs,
          stdin,
          keep: { headBytes: FILE_LIMIT, tailBytes: 0 },
          stopAfterBytes: FILE_LIMIT
        }))

    const readFile = Effect.fn("SandboxProvider.readFile")(function*(id: string, path: string) {
      const result = yield* fileCommand(id, `[ -e "$1" ] || exit 3; exec cat -- "$1"`, path)
      if (result.exitCode === 3) return null
      const { stderr, stdout } = bytesOf(result)
      if (result.exitCode !== 0 || result.outputLimited) {
        return yield* new SandboxFileError({
          message: result.outputLimited ? `${path} is over ${FILE_LIMIT} bytes` : stderr
        })
      }
      return new Uint8Array(stdout)
    })

    const writeFile = Effect.fn("SandboxProvider.writeFile")(function*(id: string, path: string, content: Uint8Array) {
      const result = yield* fileCommand(id, `mkdir -p -- "$(dirname -- "$1")" && exec cat > "$1"`, path, content)
      if (result.exitCode !== 0) return yield* new SandboxFileError({ message: bytesOf(result).stderr })
    })

    const desktop = Effect.fn("SandboxProvider.desktop")(function*(id: string, action: DesktopAction) {
      const info = yield* held(id)
      if (!info.desktop) {
        return yield* new InvalidDesktopAction({
          message:
            `Sandbox ${id} has no desktop: create one with {"desktop": true} (or \`parley sandbox create --desktop\`)`
        })
      }
      const problem = checkAction(action, settings.display)
      if (problem !== undefined) return yield* problem
      if (action.action === "wait") {
        yield* Effect.sleep(Math.round(action.seconds * 1000))
        return {}
      }
      const screenshot = action.action === "screenshot"
      const result = yield* inTurn(id, (current) =>
        jailed(current, screenshot ? ["xwd", "-root", "-silent"] : ["xdotool", ...xdotoolArgs(action)!], {
          timeoutMs: DESKTOP_ACTION_TIMEOUT_MS,
          keep: screenshot ? { headBytes: FILE_LIMIT, tailBytes: 0 } : { headBytes: 64 * 1024, tailBytes: 0 },
          stopAfterBytes: FILE_LIMIT
        }))
      return yield* desktopResult(action, result)
    })

    // Desktops of removed sandboxes (say, `parley sandbox rm` in another process) and idle ones stop here.
    const sweep = Effect.gen(function*() {
      const now = Date.now()
      for (const [id, lastUsed] of desktops.running()) {
        const exists = yield* Effect.map(store.get(id), Option.isSome).pipe(Effect.orElseSucceed(() =>
          true
        ))
        if (!exists || now - lastUsed > settings.desktopIdleMs) yield* desktops.stop(id)
      }
    })
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(settings.sweepIntervalMs)))
    yield* Effect.addFinalizer(() => desktops.stopAll)

    return {
      instance: settings.instance,
      display: settings.display,
      create,
      get,
      list: Effect.orDie(store.list),
      destroy,
      run,
      readFile,
      writeFile,
      desktop
    } satisfies SandboxBackend
  })
