import { afterAll, assert, describe, it, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Option } from "effect"
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { hostIdentity } from "../../src/sandbox/jail.ts"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { makeSettings } from "../../src/sandbox/SandboxSettings.ts"
import { SandboxStore } from "../../src/sandbox/SandboxStore.ts"
import { dataDirectory, eventually, marked, processesWith, testSandboxes, testStore } from "./support.ts"

const { base, data, sandboxes: root } = dataDirectory()
afterAll(() => rmSync(base, { recursive: true, force: true }))
const text = (bytes: Uint8Array | null) => bytes === null ? null : new TextDecoder().decode(bytes)
const bytes = (value: string) => new TextEncoder().encode(value)
const waitFor = (check: () => boolean, timeoutMs: number) => Effect.promise(() => eventually(check, timeoutMs))

// Live services: commands, timeouts and desktops run in real time.
layer(Layer.mergeAll(testSandboxes(root), testStore(root)), { excludeTestServices: true })(
  "the local backend",
  (it) => {
    it.effect("creates, lists and destroys sandboxes with their workspace", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const sandbox = yield* sandboxes.create({ ownerKeyId: "key_1", desktop: false, network: false })
        assert.match(sandbox.id, /^sbx_[0-9a-f]{24}$/)
        assert.deepStrictEqual(yield* sandboxes.get(sandbox.id), sandbox)
        assert.isTrue((yield* sandboxes.list).some((listed) => listed.id === sandbox.id))
        const workspace = join(root, sandbox.id, "workspace")
        const identity = hostIdentity(sandbox.uid)
        if (identity !== undefined) assert.strictEqual(statSync(workspace).uid, identity.uid)
        assert.strictEqual(statSync(workspace).mode & 0o777, 0o700)

        yield* sandboxes.destroy(sandbox.id)
        assert.isFalse(existsSync(join(root, sandbox.id)))
        assert.strictEqual((yield* Effect.flip(sandboxes.get(sandbox.id)))._tag, "SandboxNotFound")
        assert.strictEqual((yield* Effect.flip(sandboxes.destroy(sandbox.id)))._tag, "SandboxNotFound")
        // Ids reach file paths: anything but the generated shape is unknown.
        assert.strictEqual((yield* Effect.flip(sandboxes.get("../../etc"))).id, "../../etc")
      }))

    it.effect("keeps files in the workspace between commands, nothing else", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: false, network: false })
        const first = yield* sandboxes.run(id, {
          command: "cd /workspace && echo kept > notes.txt && export GONE=1 && pwd"
        })
        assert.deepStrictEqual(first, {
          stdout: "/workspace\n",
          stderr: "",
          exitCode: 0,
          truncated: false,
          timedOut: false
        })
        const second = yield* sandboxes.run(id, { command: "cat notes.txt; echo \"[$GONE]\"; exit 7" })
        assert.deepStrictEqual([second.stdout, second.exitCode], ["kept\n[]\n", 7])
        const piped = yield* sandboxes.run(id, { command: "tr a-z A-Z", stdin: bytes("shout") })
        assert.strictEqual(piped.stdout, "SHOUT")
      }))

    it.effect("reads and writes files inside the jail only", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: false, network: false })
        yield* sandboxes.writeFile(id, "deep/dir/file.txt", bytes("hello"))
        assert.strictEqual(text(yield* sandboxes.readFile(id, "deep/dir/file.txt")), "hello")
        assert.strictEqual(text(yield* sandboxes.readFile(id, "/workspace/deep/dir/file.txt")), "hello")
        assert.isNull(yield* sandboxes.readFile(id, "missing.txt"))
        assert.strictEqual((yield* Effect.flip(sandboxes.readFile(id, "deep")))._tag, "SandboxFileError")

        // A link to a host file resolves inside the jail, where that file does not exist.
        mkdirSync(data, { recursive: true })
        const secret = join(data, "host-secret.txt")
        writeFileSync(secret, "host only")
        yield* sandboxes.run(id, { command: `ln -s ${secret} link && ln -s / root` })
        assert.isNull(yield* sandboxes.readFile(id, "link"))
        assert.isNull(yield* sandboxes.readFile(id, `root${secret}`))
        assert.strictEqual(
          (yield* Effect.flip(sandboxes.writeFile(id, "/etc/evil", bytes("x")))).message.includes("Read-only"),
          true
        )
        yield* sandboxes.destroy(id)
        assert.isTrue(existsSync(secret), "destroying the sandbox must not follow its links")
      }))

    it.effect("kills the whole process group on timeout", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: false, network: false })
        const marker = `timeout-${id}`
        const started = Date.now()
        const result = yield* sandboxes.run(id, {
          command: marked(marker, "sleep 30 & sleep 30 & echo started; wait"),
          timeoutMs: 500
        })
        assert.isBelow(Date.now() - started, 2_000)
        assert.deepStrictEqual([result.stdout, result.exitCode, result.timedOut], ["started\n", null, true])
        assert.include(result.stderr, "stopped after the 500 ms timeout")
        assert.isTrue(yield* waitFor(() => processesWith(marker).length === 0, 1_000))
      }))

    it.effect("interrupting a command kills it within a second", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: false, network: false })
        const marker = `interrupt-${id}`
        const fiber = yield* Effect.forkChild(sandboxes.run(id, { command: marked(marker, "sleep 1000 & wait") }))
        assert.isTrue(yield* waitFor(() => processesWith(marker).length >= 1, 5_000))
        const interruptedAt = Date.now()
        yield* Fiber.interrupt(fiber)
        assert.isTrue(yield* waitFor(() => processesWith(marker).length === 0, 1_000))
        assert.isBelow(Date.now() - interruptedAt, 1_000)
      }))

    it.effect("a desktop: programs outlive their command, actions reach them, screenshots are PNGs", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: true, network: false })
        const started = yield* sandboxes.run(id, {
          command: "stdbuf -oL xev -geometry 200x150+100+100 > xev.log 2>&1 & sleep 0.3; echo $DISPLAY"
        })
        // Should it print nothing, the exit code and stderr say why (137: killed, say).
        assert.strictEqual(started.stdout, ":0\n", `exit code ${started.exitCode}, stderr: ${started.stderr}`)
        // xev outlives its command; the actions below need its window mapped, however long that takes.
        const xevLog = join(root, id, "workspace", "xev.log")
        const mapped = () => existsSync(xevLog) && readFileSync(xevLog, "utf8").includes("MapNotify")
        assert.isTrue(yield* waitFor(mapped, 10_000), "xev maps its window")
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
          assert.deepStrictEqual(yield* sandboxes.desktop(id, action), {}, action.action)
        }
        assert.deepStrictEqual(yield* sandboxes.desktop(id, { action: "cursor_position" }), { cursor: [190, 140] })

        yield* Effect.sleep("200 millis")
        const log = text(yield* sandboxes.readFile(id, "xev.log")) ?? ""
        for (const button of [1, 2, 3, 5]) {
          assert.match(log, new RegExp(`ButtonPress event[\\s\\S]*?button ${button},`), `button ${button}`)
        }
        for (const key of ["(keysym 0x68, h)", "(keysym 0x69, i)", "(keysym 0xff0d, Return)"]) {
          assert.include(log, key)
        }

        const shot = yield* sandboxes.desktop(id, { action: "screenshot" })
        const { decodePng } = yield* Effect.promise(() => import("./png.ts"))
        const png = decodePng(shot.screenshot!)
        assert.deepStrictEqual([png.width, png.height], [1024, 768])
        assert.notDeepEqual(png.pixel(150, 150), png.pixel(600, 600), "the xev window shows on the screenshot")

        const off = yield* Effect.flip(sandboxes.desktop(id, { action: "mouse_move", coordinate: [1024, 5] }))
        assert.strictEqual(off._tag, "InvalidDesktopAction")

        // Removed by another process (the CLI): its desktop stops at the next sweep.
        yield* (yield* SandboxStore).remove(id)
        assert.isTrue(yield* waitFor(() => processesWith(id).length === 0, 3_000))
      }))

    it.effect("a sandbox without a desktop refuses desktop actions", () =>
      Effect.gen(function*() {
        const sandboxes = yield* SandboxProvider
        const { id } = yield* sandboxes.create({ ownerKeyId: null, desktop: false, network: false })
        const error = yield* Effect.flip(sandboxes.desktop(id, { action: "screenshot" }))
        assert.include(error.message, "has no desktop")
        assert.isTrue(Option.isSome(yield* (yield* SandboxStore).get(id)))
      }))
  }
)

describe("sandbox records", () => {
  it.effect("written by earlier versions in their folders join the table as this instance's; bad ones are left", () =>
    Effect.gen(function*() {
      const { base, sandboxes: root } = dataDirectory()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(base, { recursive: true, force: true })))
      const good = "sbx_00000a000000000000000000"
      const bad = "sbx_000000000000000000000000"
      const record = (id: string, text: string) => {
        mkdirSync(join(root, id), { recursive: true })
        writeFileSync(join(root, id, "sandbox.json"), text)
      }
      // Written before uids were allocated: the uid is derived from the id.
      record(
        good,
        JSON.stringify({
          id: good,
          ownerKeyId: null,
          desktop: true,
          network: false,
          createdAt: "2025-01-02T03:04:05.000Z"
        })
      )
      record(bad, "{not json")
      const listed = yield* Effect.flatMap(SandboxStore, (store) => store.list).pipe(Effect.provide(testStore(root)))
      assert.deepStrictEqual(listed, [{
        id: good,
        ownerKeyId: null,
        desktop: true,
        network: false,
        createdAt: new Date("2025-01-02T03:04:05.000Z"),
        uid: 1_000_010,
        instance: makeSettings({ root }).instance
      }])
      assert.isFalse(existsSync(join(root, good, "sandbox.json")))
      assert.isTrue(existsSync(join(root, bad, "sandbox.json")))
      // Its uid is claimed: the next sandbox gets another.
      assert.isTrue(existsSync(join(root, ".uids", "1000010")))
    }))
})
