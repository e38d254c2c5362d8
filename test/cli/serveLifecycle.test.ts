import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { eventually } from "../sandbox/support.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { bearer } from "../support/http.ts"
import { freePort, type GatewayProcess, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"

/**
 * `npm start` / `parley serve` as an operator meets them (docs/DESIGN.md §8):
 * what stops it starting is one line saying what to do, with exit code 1;
 * SIGHUP reloads the config file's providers, or keeps them and says why.
 */
const root = resolve(import.meta.dirname, "../..")
const node = join(root, "node_modules/.bin/node")
let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-serve-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const provider = {
  id: "test",
  type: "openai-compatible",
  baseURL: "http://127.0.0.1:9/v1",
  models: [{ id: "m1", name: "Model One", categories: ["chat"] }]
}

const configFile = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

/** `node src/main.ts` with only these settings; resolves with its exit code and everything it printed. */
const serveOnce = async (env: Record<string, string>) => {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(OPENAI|ANTHROPIC|PARLEY|PORT|HOST|DATABASE_URL)/.test(name))
  )
  const child: ChildProcess = spawn(node, [join(root, "src/main.ts")], {
    cwd: dir,
    env: { ...clean, HOST: "127.0.0.1", DATABASE_URL: "sqlite::memory:", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (data: Buffer) => (output += data.toString("utf8")))
  child.stderr!.on("data", (data: Buffer) => (output += data.toString("utf8")))
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
  const [code] = await once(child, "exit")
  clearTimeout(timer)
  return { code, lines: output.trim().split("\n") }
}

describe("startup failures: one line saying what to do, exit 1", () => {
  it("the port is taken", async () => {
    const taken: Server = createServer()
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done))
    const port = (taken.address() as { port: number }).port
    try {
      const config = configFile("good.json", JSON.stringify({ providers: [provider] }))
      const { code, lines } = await serveOnce({ PORT: String(port), PARLEY_CONFIG: config })
      expect(code).toBe(1)
      expect(lines).toEqual([
        `parley cannot start: port ${port} on 127.0.0.1 is already in use (another parley?). Stop that process, or set PORT to a free port.`
      ])
    } finally {
      taken.close()
    }
  })

  it("the database does not answer, without echoing its URL", async () => {
    const closed = await freePort()
    const config = configFile("good.json", JSON.stringify({ providers: [provider] }))
    const { code, lines } = await serveOnce({
      PORT: String(await freePort()),
      PARLEY_CONFIG: config,
      DATABASE_URL: `postgres://parley:hunter2@127.0.0.1:${closed}/parley`
    })
    expect(code).toBe(1)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^parley cannot start: the database does not answer \(.*ECONNREFUSED.*\)\. Check DATABASE_URL/
    )
    expect(lines[0]).not.toContain("hunter2")
  })

  it("the config file is broken", async () => {
    const config = configFile("broken.json", "{ \"providers\": [ ")
    const { code, lines } = await serveOnce({ PORT: String(await freePort()), PARLEY_CONFIG: config })
    expect(code).toBe(1)
    expect(lines[0]).toBe("parley cannot start: the configuration has 1 problem:")
    expect(lines.slice(1)).toEqual([expect.stringMatching(new RegExp(`^  - ${config}: not valid JSON`))])
  })
})

describe("SIGHUP", () => {
  let upstream: Upstream
  let gateway: GatewayProcess
  beforeAll(async () => {
    upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY })
    gateway = await startGatewayProcess({ upstreamUrl: upstream.url })
  }, 60_000)
  afterAll(async () => {
    await gateway?.stop()
    await upstream?.close()
  })

  const modelIds = async () => {
    const response = await fetch(`${gateway.url}/api/v1/models`, { headers: bearer(gateway.key) })
    const ids = ((await response.json()).data.models as Array<{ id: string }>).map((model) => model.id)
    // The OpenAI door keeps bodies of its own: it must drop them with the old catalog too.
    const openAi = await fetch(`${gateway.url}/v1/models`, { headers: bearer(gateway.key) })
    expect(((await openAi.json()).data as Array<{ id: string }>).map((model) => model.id)).toEqual(ids)
    return ids
  }

  it("reloads the providers and models of a good file, and keeps them on a bad one", async () => {
    expect(await modelIds()).toEqual(["test/m1", "test/m2"])
    writeFileSync(
      gateway.configFile,
      JSON.stringify({
        providers: [{
          id: "test",
          type: "openai-compatible",
          baseURL: upstream.url,
          apiKey: UPSTREAM_API_KEY,
          models: [{ id: "m3", name: "Model Three", categories: ["chat"] }]
        }]
      })
    )
    process.kill(gateway.pid, "SIGHUP")
    expect(await eventually(() => gateway.output().includes("Config reloaded"), 10_000, 50)).toBe(true)
    expect(await modelIds(), gateway.output()).toEqual(["test/m3"])

    writeFileSync(gateway.configFile, "{ not json")
    process.kill(gateway.pid, "SIGHUP")
    expect(await eventually(() => gateway.output().includes("Config reload failed"), 10_000, 50)).toBe(true)
    const failure = gateway.output().split("\n").filter((line) => line.includes("Config reload failed"))
    expect(failure).toHaveLength(1)
    expect(failure[0]).toContain("not valid JSON")
    expect(await modelIds()).toEqual(["test/m3"])
    expect((await fetch(`${gateway.url}/ready`)).status).toBe(200)
  }, 30_000)
})
