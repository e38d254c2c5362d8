import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { Agent, createServer, get } from "node:http"
import { type AddressInfo, connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { childrenOf, freePort, serve, until } from "./servedWorkers.ts"

const base = mkdtempSync(join(tmpdir(), "parley-workers-"))
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** Established TCP connections on local `port` that process `pid` holds. */
const connectionsHeld = (pid: number, port: number): number => {
  const portHex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`
  const inodes = new Set(
    ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((table) =>
      readFileSync(table, "utf8").split("\n").slice(1).map((line) => line.trim().split(/\s+/))
        .filter((fields) => fields[1]?.endsWith(portHex) && fields[3] === "01")
        .map((fields) => fields[9])
    )
  )
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1])
    } catch {
      return false
    }
  }).length
}

const health = (port: number, agent?: Agent) =>
  new Promise<number>((done, fail) =>
    get({ host: "127.0.0.1", port, path: "/health", agent }, (res) => {
      res.resume().on("end", () => done(res.statusCode ?? 0))
    }).on("error", fail)
  )

const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), done(true)))
    socket.once("error", () => done(false))
  })

describe("parley serve --workers", () => {
  it(
    "answers on one port from two worker processes, replaces a killed one, and stops them all on SIGTERM",
    async () => {
      const port = await freePort()
      const served = serve(base, port, ["--workers", "2"])
      try {
        await until(
          served,
          () => served.output().split("Listening on").length - 1 === 2,
          60_000,
          "two workers listening"
        )
        const workers = childrenOf(served.primary.pid!)
        expect(workers).toHaveLength(2)

        // The primary hands connections to the workers in turn: four open at once, two each.
        const agent = new Agent({ keepAlive: true, maxSockets: 4 })
        expect(await Promise.all(Array.from({ length: 8 }, () => health(port, agent)))).toEqual(Array(8).fill(200))
        expect(workers.map((pid) => connectionsHeld(pid, port) > 0)).toEqual([true, true])
        agent.destroy()

        process.kill(workers[0]!, "SIGKILL")
        await until(served, () => served.output().split("Listening on").length - 1 === 3, 60_000, "replacement worker")
        const replaced = childrenOf(served.primary.pid!)
        expect(replaced).toHaveLength(2)
        expect(replaced).toContain(workers[1])
        expect(replaced).not.toContain(workers[0])
        expect(served.output()).toContain(`worker ${workers[0]} was killed by SIGKILL; starting another`)
        expect(await health(port)).toBe(200)

        served.primary.kill("SIGTERM")
        expect(await served.exited).toBe(0)
        expect(replaced.filter(existsProcess)).toEqual([])
        expect(await listening(port)).toBe(false)
      } finally {
        served.primary.kill("SIGKILL")
      }
    },
    150_000
  )

  it(
    "stops with exit code 1 when the workers cannot start (the port is taken), instead of restarting them",
    async () => {
      const taken = createServer()
      const port = await new Promise<number>((done) =>
        taken.listen(0, "127.0.0.1", () => done((taken.address() as AddressInfo).port))
      )
      try {
        const served = serve(base, port, ["--workers", "2"])
        expect(await served.exited).toBe(1)
        expect(served.output()).toContain("before it listened; stopping the others")
        expect(served.output()).not.toContain("starting another")
      } finally {
        taken.close()
      }
    },
    90_000
  )

  it("refuses a worker count that is neither a number nor auto", async () => {
    const served = serve(base, await freePort(), ["--workers", "many"])
    expect(await served.exited).toBe(1)
    expect(served.output()).toContain(`--workers takes a number of processes (1-999) or auto, not "many"`)
  }, 60_000)
})

const existsProcess = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
