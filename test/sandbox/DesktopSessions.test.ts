import { Effect, ManagedRuntime } from "effect"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { SandboxBackend } from "../../src/sandbox/SandboxBackend.ts"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { decodePng } from "./png.ts"
import { dataDirectory, displayServersOf, eventually, testSandboxes } from "./support.ts"

const { base, sandboxes: root } = dataDirectory()
const IDLE_MS = 2_000

/** A gateway process's sandboxes, as each worker of one instance has them: the same folder and database. */
const worker = () => ManagedRuntime.make(testSandboxes(root, {}, { desktopIdleMs: IDLE_MS, sweepIntervalMs: 200 }))
type Worker = ReturnType<typeof worker>
const workers: Array<Worker> = []
const started = () => {
  const runtime = worker()
  workers.push(runtime)
  return runtime
}
afterAll(async () => {
  await Promise.all(workers.map((runtime) => runtime.dispose()))
  rmSync(base, { recursive: true, force: true })
})

const on = <A, E>(runtime: Worker, use: (sandboxes: SandboxBackend) => Effect.Effect<A, E>) =>
  runtime.runPromise(Effect.gen(function*() {
    return yield* use(yield* SandboxProvider)
  }))
const createDesktop = (runtime: Worker) =>
  on(runtime, (sandboxes) => sandboxes.create({ ownerKeyId: null, desktop: true, network: false }))
const screenshot = async (runtime: Worker, id: string) =>
  decodePng((await on(runtime, (sandboxes) => sandboxes.desktop(id, { action: "screenshot" }))).screenshot!)
const cursor = (runtime: Worker, id: string) =>
  on(runtime, (sandboxes) => sandboxes.desktop(id, { action: "cursor_position" }))

describe("desktops shared by the processes of one instance", () => {
  it("one display server per sandbox, started by whichever process comes first and used by both", async () => {
    const [a, b] = [started(), started()]
    const { id } = await createDesktop(a)
    const shots = await Promise.all([a, b, a, b, a, b].map((runtime) => screenshot(runtime, id)))
    expect(shots.map((png) => png.width)).toEqual(Array(6).fill(1024))
    expect(displayServersOf(join(root, id))).toHaveLength(1)

    // A window opened through one shows through the other; the pointer moved through one is where the other sees it.
    await on(
      b,
      (sandboxes) => sandboxes.run(id, { command: "xev -geometry 200x150+100+100 >/dev/null 2>&1 & sleep 0.5" })
    )
    const png = await screenshot(a, id)
    expect(png.pixel(150, 150)).not.toEqual(png.pixel(600, 600))
    await on(a, (sandboxes) => sandboxes.desktop(id, { action: "mouse_move", coordinate: [321, 123] }))
    expect(await cursor(b, id)).toEqual({ cursor: [321, 123] })
    expect(displayServersOf(join(root, id))).toHaveLength(1)
  })

  it("a desktop ends with the process that started it; the other then starts another", async () => {
    const [a, b] = [started(), started()]
    const { id } = await createDesktop(a)
    await screenshot(a, id)
    await screenshot(b, id)
    const [first] = displayServersOf(join(root, id))
    expect(first).toBeTypeOf("number")

    await a.dispose()
    expect(await eventually(() => displayServersOf(join(root, id)).length === 0, 3_000)).toBe(true)
    expect((await screenshot(b, id)).width).toBe(1024)
    const now = displayServersOf(join(root, id))
    expect(now).toHaveLength(1)
    expect(now).not.toContain(first)
  })

  it("is idle only when no process has used it for the idle time", async () => {
    const [a, b] = [started(), started()]
    const { id } = await createDesktop(a)
    await screenshot(a, id)
    const [first] = displayServersOf(join(root, id))
    // Used through the other process alone for longer than the idle time: the one running it keeps it.
    const until = Date.now() + IDLE_MS * 2
    while (Date.now() < until) {
      await cursor(b, id)
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    expect(displayServersOf(join(root, id))).toEqual([first])
    expect(await eventually(() => displayServersOf(join(root, id)).length === 0, IDLE_MS + 2_000)).toBe(true)
  })

  it("is not idle while an action takes longer than the idle time, nor as soon as it ends", async () => {
    const a = started()
    const { id } = await createDesktop(a)
    await screenshot(a, id)
    const [first] = displayServersOf(join(root, id))
    const slow = await on(
      a,
      (sandboxes) => sandboxes.run(id, { command: `sleep ${(IDLE_MS * 1.5) / 1000}; xdotool getmouselocation` })
    )
    expect(slow.exitCode, slow.stderr).toBe(0)
    expect(slow.stdout).toMatch(/^x:\d+ y:\d+/)
    expect(displayServersOf(join(root, id))).toEqual([first])
  })
})
