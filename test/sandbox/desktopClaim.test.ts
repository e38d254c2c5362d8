import { spawn } from "node:child_process"
import { closeSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { isRunning, readRecord, startOf, tryLock, writeRecord } from "../../src/sandbox/desktopClaim.ts"
import { findOnHost } from "../../src/sandbox/jail.ts"

const folder = mkdtempSync(join(tmpdir(), "parley-claim-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
const files = { lock: join(folder, "desktop.lock"), record: join(folder, "desktop.json") }
const flock = findOnHost("flock")!

describe("the desktop lock", () => {
  it("is held by one descriptor at a time, and free again once it is closed", async () => {
    const held = await tryLock(flock, files)
    expect(held).toBeTypeOf("number")
    expect(await tryLock(flock, files)).toBeUndefined()
    closeSync(held!)
    const next = await tryLock(flock, files)
    expect(next).toBeTypeOf("number")
    closeSync(next!)
  })

  it("is freed by the kernel when the process holding it dies", async () => {
    // As a worker holds it: on a descriptor of its own (here bash's, kept through exec by sleep).
    const holder = spawn("/bin/bash", [
      "-c",
      `exec 9>>"$1" && ${flock} --exclusive 9 && exec sleep 60`,
      "x",
      files.lock
    ], {
      stdio: "ignore"
    })
    const deadline = Date.now() + 5_000
    let taken = false
    while (!taken && Date.now() < deadline) {
      const fd = await tryLock(flock, files)
      if (fd === undefined) taken = true
      else closeSync(fd)
    }
    expect(taken).toBe(true)
    holder.kill("SIGKILL")
    await new Promise((resolve) => holder.once("exit", resolve))
    const fd = await tryLock(flock, files)
    expect(fd).toBeTypeOf("number")
    closeSync(fd!)
  })
})

describe("the desktop record", () => {
  it("names a running process by its pid and start time, not whichever process later has the pid", () => {
    const start = startOf(process.pid)!
    expect(start).toMatch(/^\d+$/)
    writeRecord(files, { pid: process.pid, start })
    expect(readRecord(files)).toEqual({ pid: process.pid, start })
    expect(isRunning({ pid: process.pid, start })).toBe(true)
    expect(isRunning({ pid: process.pid, start: String(Number(start) + 1) })).toBe(false)
    expect(isRunning({ pid: 2 ** 22 + 1, start })).toBe(false)
  })

  it("is ignored when it is not one", () => {
    for (const text of ["", "{", `{"pid": 1, "start": "5"}`, `{"pid": "12", "start": "5"}`, `{"pid": 12}`]) {
      writeFileSync(files.record, text)
      expect(readRecord(files), text).toBeUndefined()
    }
  })
})
