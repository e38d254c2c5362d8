import { Effect, Option, Schedule } from "effect"
import { join } from "node:path"
import type { DesktopJail } from "./desktopClaim.ts"
import { makeDesktopSessions } from "./DesktopSessions.ts"
import { foldersOf, prepareFolders, removeFolders } from "./folders.ts"
import { findInJail, gatewayIsRoot } from "./jail.ts"
import { jailFailure, probeFailure } from "./jailFailure.ts"
import { findHostPrograms, type HostPrograms, type JailedCommand, runJailed } from "./runJailed.ts"
import {
  type CreateSandbox,
  newSandboxId,
  outOfReach,
  type SandboxElsewhere,
  type SandboxInfo,
  SandboxNotFound,
  SandboxUnavailable
} from "./Sandbox.ts"
import type { SandboxBackend } from "./SandboxBackend.ts"
import { makeOperations } from "./sandboxOperations.ts"
import { SandboxRecords } from "./SandboxRecords.ts"
import type { SandboxSettings } from "./SandboxSettings.ts"
import { type LocalSandbox, SandboxStore } from "./SandboxStore.ts"
import { makeSandboxUse } from "./sandboxUse.ts"
import { stopSandboxProcesses } from "./stopSandboxProcesses.ts"
import { makeWorkspaceDisks, unmountWorkspace } from "./workspaceDisks.ts"

const MiB = 1024 * 1024
const desktopPrograms = ["Xvfb", "xdotool", "xwd"]

/**
 * The embedded backend: each command runs in a fresh bubblewrap jail over
 * the sandbox's workspace folder; a desktop sandbox also keeps a jail
 * running Xvfb whose namespaces its commands and desktop actions join.
 */
export const makeLocalSandboxes = (settings: SandboxSettings) =>
  Effect.gen(function*() {
    const store = yield* SandboxStore
    const records = yield* SandboxRecords
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

    const use = makeSandboxUse(records)

    // Its workspace is on the disk of the instance that created it (docs/DESIGN.md §8).
    const held = (id: string): Effect.Effect<LocalSandbox, SandboxNotFound | SandboxElsewhere> =>
      Effect.flatMap(
        Effect.orDie(store.get(id)),
        (found): Effect.Effect<LocalSandbox, SandboxNotFound | SandboxElsewhere> => {
          // Not a local one (another backend's, or none): the record says where it is, if anywhere.
          if (Option.isNone(found)) {
            return Effect.flatMap(
              use.get(id),
              (info) => Effect.fail(outOfReach(info, "local", settings.instance) ?? new SandboxNotFound({ id }))
            )
          }
          const elsewhere = outOfReach(found.value, "local", settings.instance)
          return elsewhere === undefined
            ? Effect.as(use.touch(found.value, settings.idleMs), found.value)
            : Effect.fail(elsewhere)
        }
      )

    /** Runs argv in a jail of the sandbox (joining its desktop when it has one). */
    const jailed = Effect.fnUntraced(function*(
      info: LocalSandbox,
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
      const now = new Date()
      const record: SandboxInfo = {
        id,
        ...input,
        backend: "local",
        instance: settings.instance,
        createdAt: now,
        usedAt: now
      }
      const info: LocalSandbox = { ...record, uid }
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
      return record
    })

    const destroy = Effect.fn("SandboxProvider.destroy")(function*(id: string) {
      yield* held(id)
      yield* removeNow(id)
    })

    const removeNow = Effect.fnUntraced(function*(id: string) {
      // Whoever started them (this process or another), the sandbox's jails end before its files go.
      yield* stopSandboxProcesses(join(settings.root, id))
      yield* desktops.stop(id)
      yield* unmountWorkspace(foldersOf(settings.root, id).workspace)
      yield* Effect.orDie(store.remove(id))
      operations.forget(id)
    })

    const operations = makeOperations({
      limits,
      display: settings.display,
      held,
      runIn: (info, { argv, ...options }) => jailed(info, argv, options),
      startFailure: (result) => jailFailure(result, limits)
    })

    // Sandboxes unused for PARLEY_SANDBOX_IDLE go, this instance's only: the others' workspaces are on their disks.
    yield* use.reclaimIdle(settings, (info) =>
      outOfReach(info, "local", settings.instance) === undefined ? removeNow(info.id) : Effect.void)

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
      name: "local",
      instance: settings.instance,
      display: settings.display,
      create,
      get: use.get,
      list: Effect.orDie(records.list),
      problem: Effect.succeed(undefined),
      destroy,
      run: operations.run,
      readFile: operations.readFile,
      writeFile: operations.writeFile,
      desktop: operations.desktop
    } satisfies SandboxBackend
  })
