import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SandboxBackendName } from "../../src/sandbox/Sandbox.ts"
import type { SandboxBackend } from "../../src/sandbox/SandboxBackend.ts"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import type { SandboxLimits } from "../../src/sandbox/SandboxSettings.ts"
import { decodePng } from "./png.ts"
import { eventually, marked, processesWith } from "./support.ts"

/**
 * What every sandbox backend does alike (docs/DESIGN.md §3.13, the seam in
 * src/sandbox/SandboxBackend.ts), run for each backend by its own test file
 * (`conformance.<backend>.test.ts`): records, commands, files, output caps,
 * timeouts, kill on cancel, desktops, deletion; the hostile cases are in
 * conformanceHostile.ts.
 */
export interface Subject {
  readonly backend: SandboxBackendName
  /** This backend over the subject's database; each call is another provider (another process) on the same records. */
  readonly sandboxes: (limits?: Partial<SandboxLimits>) => Layer.Layer<SandboxProvider, unknown>
  /** A host folder the sandboxes must not see (the database's). */
  readonly hostFolder: string
}

export const plain = { ownerKeyId: null, desktop: false, network: false } as const
export const text = (bytes: Uint8Array | null) => bytes === null ? null : new TextDecoder().decode(bytes)
export const bytes = (value: string) => new TextEncoder().encode(value)

/** The subject's sandboxes for one test file, each made sandbox destroyed at the end. */
export const provider = (subject: Subject, limits?: Partial<SandboxLimits>) => {
  let runtime: ManagedRuntime.ManagedRuntime<SandboxProvider, unknown>
  const made = new Set<string>()
  beforeAll(() => {
    runtime = ManagedRuntime.make(subject.sandboxes(limits))
  })
  afterAll(async () => {
    await runtime.runPromise(Effect.flatMap(
      Effect.service(SandboxProvider),
      (sandboxes) =>
        Effect.forEach(
          [...made],
          (id) =>
            Effect.catchCause(sandboxes.destroy(id), (cause) => Effect.logWarning(`${id} was not destroyed`, cause)),
          { concurrency: 4 }
        )
    ))
    await runtime.dispose()
  }, 60_000)
  const on = <A, E>(use: (sandboxes: SandboxBackend) => Effect.Effect<A, E>): Promise<A> =>
    runtime.runPromise(Effect.flatMap(Effect.service(SandboxProvider), use))
  const create = async (
    input: { readonly desktop?: boolean; readonly network?: boolean; readonly ownerKeyId?: string } = {}
  ) => {
    const sandbox = await on((sandboxes) => sandboxes.create({ ...plain, ...input }))
    made.add(sandbox.id)
    return sandbox
  }
  const run = (id: string, command: string, options: { timeoutMs?: number; stdin?: string } = {}) =>
    on((sandboxes) =>
      sandboxes.run(id, {
        command,
        timeoutMs: options.timeoutMs,
        stdin: options.stdin === undefined ? undefined : bytes(options.stdin)
      })
    )
  return { on, create, run, runtime: () => runtime }
}

export const conformance = (subject: Subject) =>
  describe(`the ${subject.backend} backend`, () => {
    const { create, on, run, runtime } = provider(subject)
    let shared: string
    beforeAll(async () => {
      shared = (await create()).id
    }, 60_000)

    it("creates, lists and destroys sandboxes; a destroyed or malformed id is unknown", async () => {
      const sandbox = await create()
      expect(sandbox).toMatchObject({ ...plain, backend: subject.backend })
      expect(sandbox.id).toMatch(/^sbx_[0-9a-f]{24}$/)
      expect(sandbox.instance === null).toBe(subject.backend === "docker")
      expect(sandbox.usedAt).toEqual(sandbox.createdAt)
      expect(await on((sandboxes) => sandboxes.get(sandbox.id))).toEqual(sandbox)
      expect((await on((sandboxes) => sandboxes.list)).map((listed) => listed.id)).toContain(sandbox.id)
      expect(await on((sandboxes) => sandboxes.problem)).toBeUndefined()

      await on((sandboxes) => sandboxes.destroy(sandbox.id))
      const after = await on((sandboxes) => Effect.flip(sandboxes.get(sandbox.id)))
      expect(after._tag).toBe("SandboxNotFound")
      expect((await on((sandboxes) => Effect.flip(sandboxes.destroy(sandbox.id))))._tag).toBe("SandboxNotFound")
      expect((await on((sandboxes) => Effect.flip(sandboxes.run(sandbox.id, { command: "true" }))))._tag)
        .toBe("SandboxNotFound")
      expect((await on((sandboxes) => Effect.flip(sandboxes.get("../../etc")))).id).toBe("../../etc")
    })

    it("runs commands in /workspace, whose files persist between commands; nothing else does", async () => {
      const first = await run(shared, "cd /workspace && echo kept > notes.txt && export GONE=1 && pwd")
      expect(first).toEqual({ stdout: "/workspace\n", stderr: "", exitCode: 0, truncated: false, timedOut: false })
      const second = await run(shared, "cat notes.txt; echo \"[$GONE]\"; exit 7")
      expect([second.stdout, second.exitCode]).toEqual(["kept\n[]\n", 7])
      expect((await run(shared, "tr a-z A-Z", { stdin: "shout" })).stdout).toBe("SHOUT")
      // Longer than an argument may be (128 KiB), with its own stdin, run as `bash -c` runs a script.
      const long = await run(shared, `: ${"x".repeat(300 * 1024)}\necho "$0"; cat; nosuch\nexit 5`, {
        stdin: "from stdin\n"
      })
      expect([long.stdout, long.exitCode]).toEqual(["/bin/bash\nfrom stdin\n", 5])
      expect(long.stderr).toContain("line 2: nosuch: command not found")
    })

    it("reads and writes files inside the sandbox only", async () => {
      const { id } = await create()
      await on((sandboxes) => sandboxes.writeFile(id, "deep/dir/file.txt", bytes("hello")))
      expect(text(await on((sandboxes) => sandboxes.readFile(id, "deep/dir/file.txt")))).toBe("hello")
      expect(text(await on((sandboxes) => sandboxes.readFile(id, "/workspace/deep/dir/file.txt")))).toBe("hello")
      expect(await on((sandboxes) => sandboxes.readFile(id, "missing.txt"))).toBeNull()
      expect((await on((sandboxes) => Effect.flip(sandboxes.readFile(id, "deep"))))._tag).toBe("SandboxFileError")
      const binary = Uint8Array.from({ length: 256 }, (_, i) => i)
      await on((sandboxes) => sandboxes.writeFile(id, "bytes.bin", binary))
      expect(await on((sandboxes) => sandboxes.readFile(id, "bytes.bin"))).toEqual(binary)

      // Links resolve inside the sandbox, where the host's files do not exist.
      await run(id, `ln -s ${subject.hostFolder}/parley.db link && ln -s / root`)
      expect(await on((sandboxes) => sandboxes.readFile(id, "link"))).toBeNull()
      expect(await on((sandboxes) => sandboxes.readFile(id, `root${subject.hostFolder}/parley.db`))).toBeNull()
      const refused = await on((sandboxes) => Effect.flip(sandboxes.writeFile(id, "/etc/evil", bytes("x"))))
      expect(refused.message).toContain("Read-only")
    })

    it("stops a command that writes without end, keeping the head and tail of its output", async () => {
      const started = Date.now()
      const result = await run(shared, "yes parley")
      expect(Date.now() - started).toBeLessThan(10_000)
      expect(result).toMatchObject({ exitCode: null, truncated: true, timedOut: false })
      expect(result.stdout.length).toBeLessThan(9_000)
      expect(result.stdout.startsWith("parley\nparley\n")).toBe(true)
      expect(result.stdout).toMatch(/bytes omitted/)
      expect(result.stderr).toContain("stopped after 1048576 bytes of output")
    })

    it("kills every process of a command on timeout", async () => {
      const marker = `timeout-${shared}`
      const started = Date.now()
      const result = await run(shared, marked(marker, "sleep 30 & sleep 30 & echo started; wait"), { timeoutMs: 500 })
      expect(Date.now() - started).toBeLessThan(3_000)
      expect([result.stdout, result.exitCode, result.timedOut]).toEqual(["started\n", null, true])
      expect(result.stderr).toContain("stopped after the 500 ms timeout")
      expect(await eventually(() => processesWith(marker).length === 0, 1_000)).toBe(true)
    })

    it("kills a command within a second of its interruption (a cancelled request)", async () => {
      // A program in a session of its own is the command's as well.
      const marker = `interrupt-${shared}`
      const sleeps = `1000.${Date.now()}`
      const running = () => processesWith(marker).length + processesWith(sleeps).length
      const fiber = runtime().runFork(
        Effect.flatMap(Effect.service(SandboxProvider), (sandboxes) =>
          sandboxes.run(shared, { command: marked(marker, `setsid sleep ${sleeps} & sleep ${sleeps} & wait`) }))
      )
      expect(
        await eventually(() =>
          running() >= 3, 10_000)
      ).toBe(true)
      const interruptedAt = Date.now()
      await runtime().runPromise(Fiber.interrupt(fiber))
      expect(Date.now() - interruptedAt).toBeLessThan(1_000)
      expect(
        await eventually(() =>
          running() === 0, 1_000)
      ).toBe(true)
    })

    it("a desktop: programs outlive their command, actions reach them, screenshots show the display", async () => {
      const { id } = await create({ desktop: true })
      const started = await run(
        id,
        "stdbuf -oL xev -geometry 200x150+100+100 > xev.log 2>&1 & sleep 0.3; echo $DISPLAY"
      )
      expect(started.stdout, `exit code ${started.exitCode}, stderr: ${started.stderr}`).toBe(":0\n")
      const log = async () => text(await on((sandboxes) => sandboxes.readFile(id, "xev.log"))) ?? ""
      const deadline = Date.now() + 10_000
      while (!(await log()).includes("MapNotify") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      expect(await log(), "xev maps its window").toContain("MapNotify")
      for (
        const action of [
          { action: "mouse_move", coordinate: [150, 150] },
          { action: "left_click", coordinate: [160, 160] },
          { action: "right_click" },
          { action: "middle_click" },
          { action: "double_click", coordinate: [170, 170] },
          { action: "scroll", direction: "down", amount: 2, coordinate: [180, 180] },
          { action: "left_click_drag", start: [120, 120], coordinate: [190, 140] },
          { action: "type", text: "hi" },
          { action: "key", text: "Return" }
        ] as const
      ) {
        expect(await on((sandboxes) => sandboxes.desktop(id, action)), action.action).toEqual({})
      }
      expect(await on((sandboxes) => sandboxes.desktop(id, { action: "cursor_position" }))).toEqual({
        cursor: [190, 140]
      })
      await new Promise((resolve) => setTimeout(resolve, 200))
      const events = await log()
      for (const button of [1, 2, 3, 5]) {
        expect(events, `button ${button}`).toMatch(new RegExp(`ButtonPress event[\\s\\S]*?button ${button},`))
      }
      for (const key of ["(keysym 0x68, h)", "(keysym 0x69, i)", "(keysym 0xff0d, Return)"]) {
        expect(events).toContain(key)
      }
      const shot = await on((sandboxes) => sandboxes.desktop(id, { action: "screenshot" }))
      const png = decodePng(shot.screenshot!)
      expect([png.width, png.height]).toEqual([1024, 768])
      expect(png.pixel(150, 150), "the xev window shows on the screenshot").not.toEqual(png.pixel(600, 600))
      const off = await on((sandboxes) =>
        Effect.flip(sandboxes.desktop(id, { action: "mouse_move", coordinate: [1024, 5] }))
      )
      expect(off._tag).toBe("InvalidDesktopAction")
    }, 60_000)

    it("a sandbox without a desktop refuses desktop actions", async () => {
      const error = await on((sandboxes) => Effect.flip(sandboxes.desktop(shared, { action: "screenshot" })))
      expect(error.message).toContain("has no desktop")
    })

    it("deleting a sandbox stops its running commands within 5 s, whichever process started them", async () => {
      const { id } = await create()
      const marker = `doomed-${id}`
      const sleeps = `600.${Date.now()}`
      const running = () => processesWith(marker).length + processesWith(sleeps).length
      const fiber = runtime().runFork(Effect.flatMap(Effect.service(SandboxProvider), (sandboxes) =>
        sandboxes.run(id, {
          command: marked(marker, `setsid sleep ${sleeps} & sleep ${sleeps} & wait`),
          timeoutMs: 300_000
        })))
      expect(await eventually(() => running() >= 3, 10_000)).toBe(true)
      // Another provider on the same records: `parley sandbox rm` in another process, or another instance.
      const deletedAt = Date.now()
      await Effect.runPromise(
        Effect.flatMap(Effect.service(SandboxProvider), (other) => other.destroy(id)).pipe(
          Effect.provide(subject.sandboxes())
        )
      )
      expect(await eventually(() => running() === 0, 5_000)).toBe(true)
      expect(Date.now() - deletedAt).toBeLessThan(5_000)
      const exit = await runtime().runPromise(Fiber.await(fiber))
      expect(exit._tag === "Success" ? exit.value.exitCode : "failed").not.toBe(0)
    })
  })
