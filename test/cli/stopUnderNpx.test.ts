import { spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { once } from "node:events"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { eventually } from "../sandbox/support.ts"
import { freePort } from "../support/freePort.ts"

/**
 * The guides' `npx parley demo --provider &` … `kill $!`, in bash: npm passes
 * the signal only to the shell it runs parley in, so parley must notice and
 * stop (src/cli/stopWithParent.ts).
 */
const root = resolve(import.meta.dirname, "../..")
const dir = mkdtempSync(join(tmpdir(), "parley-npx-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const answers = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, "127.0.0.1")
    const answer = (yes: boolean) => {
      socket.destroy()
      done(yes)
    }
    socket.once("connect", () => answer(true)).once("error", () => answer(false))
    socket.setTimeout(1_000, () => answer(false))
  })

// Every process the script starts inherits the mark, so this finds whatever outlives it.
const MARK = "PARLEY_NPX_STOP_TEST"
const markedProcesses = (mark: string): Array<number> =>
  readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`${MARK}=${mark}`) ? [Number(pid)] : []
    } catch {
      return [] // gone meanwhile, or not ours to read
    }
  })

/**
 * Runs `<command> &` in bash from the project, waits for `port` to answer
 * (60 s at most), then `kill $!`; resolves with the mark of its processes.
 */
const startAndKill = async (command: string, port: number, env: Record<string, string> = {}) => {
  const mark = randomUUID()
  const script = [
    `${command} > ${join(dir, `${mark}.log`)} 2>&1 &`,
    `for _ in $(seq 300); do (echo > /dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.2; done`,
    `(echo > /dev/tcp/127.0.0.1/${port}) 2>/dev/null || { kill $!; exit 3; }`,
    "kill $!"
  ].join("\n")
  const bash = spawn("bash", ["-c", script], {
    cwd: root,
    env: { ...process.env, ...env, [MARK]: mark },
    stdio: "ignore"
  })
  const [code] = await once(bash, "exit")
  const log = () => readFileSync(join(dir, `${mark}.log`), "utf8")
  expect(code, `${command} never answered on port ${port}:\n${log()}`).toBe(0)
  return mark
}

/** The port is free and nothing the script started is left, within 2.5 s of `kill $!`. */
const expectStopped = async (mark: string, port: number) => {
  const startedAt = Date.now()
  const stopped = await eventually(() => markedProcesses(mark).length === 0, 2_500, 50)
  const portFree = !(await answers(port))
  const left = markedProcesses(mark)
  // Whatever this test started must not hold the port for the files after it.
  for (const pid of left) process.kill(pid, "SIGKILL")
  expect({ stopped, portFree, left }).toEqual({ stopped: true, portFree: true, left: [] })
  expect(Date.now() - startedAt).toBeLessThan(2_500)
}

describe("kill $! stops what `npx parley … &` started", () => {
  // On a port of its own, not the example config's 9100, which the guides' tests use meanwhile.
  it("the demo's provider: its port is free and no process is left", async () => {
    const port = await freePort()
    const mark = await startAndKill(`npx parley demo --provider --port ${port}`, port)
    await expectStopped(mark, port)
  }, 90_000)

  it("parley serve", async () => {
    const port = await freePort()
    const config = join(dir, "parley.config.json")
    writeFileSync(config, JSON.stringify({ providers: [] }))
    const mark = await startAndKill("npx parley serve", port, {
      HOST: "127.0.0.1",
      PORT: String(port),
      PARLEY_CONFIG: config,
      DATABASE_URL: "sqlite::memory:"
    })
    await expectStopped(mark, port)
  }, 90_000)
})
