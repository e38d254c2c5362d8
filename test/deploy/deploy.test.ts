import { execFileSync, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

/**
 * deploy/ as docs/deployment.md says it was checked: `nginx -t` on the site, the site run on loopback in front
 * of two servers and in front of parley, `systemd-analyze verify` on the unit. CI installs nginx and systemd (.ci/run); elsewhere a
 * missing program skips its tests, under CI=true it fails them.
 */
const repo = join(import.meta.dirname, "..", "..")
const site = readFileSync(join(repo, "deploy/nginx/parley.conf"), "utf8")
const unit = readFileSync(join(repo, "deploy/systemd/parley.service"), "utf8")

const has = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0
const ci = process.env["CI"] === "true"
const needs = (program: string) => {
  if (!has(program) && ci) throw new Error(`${program} is missing: .ci/run installs it`)
  return has(program)
}

/** An nginx.conf around `siteText`, everything it writes kept in `dir`. */
const nginxConf = (dir: string, siteText: string): string => {
  writeFileSync(join(dir, "parley.conf"), siteText)
  const conf = join(dir, "nginx.conf")
  writeFileSync(
    conf,
    [
      `pid ${dir}/nginx.pid;`,
      "error_log stderr;",
      "events {}",
      "http {",
      "  access_log off;",
      `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;`,
      `  fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
      `  include ${dir}/parley.conf;`,
      "}",
      ""
    ].join("\n")
  )
  return conf
}

/** The site run on loopback in front of `upstreams` (ports on 127.0.0.1): its port, and how to stop it. */
const startNginx = async (upstreams: ReadonlyArray<number>) => {
  // A free port for nginx: take one, then let it go.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
  const dir = mkdtempSync(join(tmpdir(), "parley-nginx-"))
  const servers = upstreams.map((upstream) => `server 127.0.0.1:${upstream};`).join(" ")
  const local = site
    .replace(/listen 80;\n\s*listen \[::\]:80;/, `listen 127.0.0.1:${port};`)
    .replace(/server 127\.0\.0\.1:8787;/, servers)
  expect(local).toContain(servers)
  const conf = nginxConf(dir, local)
  const nginx = spawn("nginx", ["-p", `${dir}/`, "-c", conf, "-e", "stderr", "-g", "daemon off;"], { stdio: "ignore" })
  const stop = () => {
    nginx.kill("SIGQUIT")
    rmSync(dir, { recursive: true, force: true })
  }
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false)
    if (up) return { port, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  stop()
  throw new Error("nginx did not start")
}

/** The remote ends of the established TCP connections to `port` on 127.0.0.1 (the kernel's table, /proc/net/tcp). */
const connectionsTo = (port: number): Array<string> =>
  readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter(([, local, , state]) =>
      local !== undefined && Number.parseInt(local.split(":")[1]!, 16) === port && state === "01"
    )
    .map(([, , remote]) => remote!)

describe.runIf(needs("nginx"))("deploy/nginx/parley.conf", () => {
  it("passes nginx -t", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-nginx-"))
    const conf = nginxConf(dir, site)
    const result = spawnSync("nginx", ["-t", "-q", "-p", `${dir}/`, "-c", conf, "-e", "stderr"], { encoding: "utf8" })
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
    rmSync(dir, { recursive: true, force: true })
  })

  describe("run on loopback in front of two servers", () => {
    const servers: Array<Server> = []
    let nginx: Awaited<ReturnType<typeof startNginx>> | undefined
    let port = 0

    const listen = (name: string) =>
      new Promise<number>((resolve) => {
        const server = createServer((req, res) => {
          if (req.url === "/stream") {
            // A streamed answer: the first event, a pause, the rest.
            res.writeHead(200, { "content-type": "text/event-stream" })
            res.write(`data: first\n\n`)
            setTimeout(() => res.end(`data: [DONE]\n\n`), 1_500)
            return
          }
          res.end(name)
        })
        servers.push(server)
        server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
      })

    beforeAll(async () => {
      nginx = await startNginx([await listen("a"), await listen("b")])
      port = nginx.port
    })

    afterAll(async () => {
      nginx?.stop()
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
    })

    const ask = (headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${port}/`, { headers }).then((response) => response.text())

    it("sends every request with one X-Parley-Sandbox to one server, and alternates the rest", async () => {
      const pinned = new Set<string>()
      for (let i = 0; i < 6; i++) pinned.add(await ask({ "X-Parley-Sandbox": "conversation-42" }))
      expect(pinned.size).toBe(1)
      const spread: Array<string> = []
      for (let i = 0; i < 6; i++) spread.push(await ask())
      expect(new Set(spread)).toEqual(new Set(["a", "b"]))
    })

    it("passes a stream's first event on before the stream ends", async () => {
      const started = Date.now()
      const response = await fetch(`http://127.0.0.1:${port}/stream`)
      const reader = response.body!.getReader()
      const first = new TextDecoder().decode((await reader.read()).value)
      expect(first).toContain("data: first")
      expect(Date.now() - started).toBeLessThan(1_000)
      await reader.cancel()
    })
  })
})

describe.runIf(needs("nginx"))("deploy/nginx/parley.conf in front of parley", () => {
  let gateway: TestGateway
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined
  let secret = ""

  beforeAll(async () => {
    // parley's defaults: PARLEY_KEEPALIVE_TIMEOUT's among them.
    gateway = await startGateway()
    secret = (await gateway.createKey({ models: ["*"] })).secret
    nginx = await startNginx([Number(new URL(gateway.url).port)])
  })

  afterAll(async () => {
    nginx?.stop()
    await gateway?.close()
  })

  const chat = async (text: string) => {
    gateway.upstream.enqueue({ type: "text", text })
    const response = await postJson(`http://127.0.0.1:${nginx!.port}/api/v1/chat`, chatBody(), bearer(secret))
    return { status: response.status, body: await response.text() }
  }

  it("answers a POST on an upstream connection nginx kept idle past 5 s, on that connection", async () => {
    const parley = Number(new URL(gateway.url).port)
    expect(await chat("the first answer")).toMatchObject({
      status: 200,
      body: expect.stringContaining("the first answer")
    })
    const kept = connectionsTo(parley)
    expect(kept).toHaveLength(1)

    // Past Node's default keep-alive (5 s, and the second it waits beyond): parley closed it then, and a POST
    // nginx sent on it as it closed came back 502.
    await new Promise((resolve) => setTimeout(resolve, 6_500))
    expect(connectionsTo(parley)).toEqual(kept)
    expect(await chat("the second answer")).toMatchObject({
      status: 200,
      body: expect.stringContaining("the second answer")
    })
    expect(connectionsTo(parley)).toEqual(kept)
  }, 20_000)
})

describe.runIf(needs("systemd-analyze"))("deploy/systemd/parley.service", () => {
  it("passes systemd-analyze verify, with no warning", () => {
    // verify checks that ExecStart's program exists: the project's own Node stands in for /opt/parley's.
    const node = execFileSync("readlink", ["-f", join(repo, "node_modules/.bin/node")], { encoding: "utf8" }).trim()
    const dir = mkdtempSync(join(tmpdir(), "parley-unit-"))
    const copy = join(dir, "parley.service")
    writeFileSync(copy, unit.replace("/opt/parley/node_modules/.bin/node", node))
    const result = spawnSync("systemd-analyze", ["verify", copy], { encoding: "utf8" })
    expect(result.stderr + result.stdout).toBe("")
    expect(result.status).toBe(0)
    rmSync(dir, { recursive: true, force: true })
  })
})
