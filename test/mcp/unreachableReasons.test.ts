import { Redacted } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type RequestListener, type Server } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { McpServerConfig } from "../../src/config/McpServerConfig.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { freePort } from "../support/reliability/gatewayProcess.ts"

/**
 * An unreachable MCP server's `reason` says what failed, in words its
 * operator can act on (docs/DESIGN.md §9), for real servers on loopback that
 * fail each in its own way; the admin API shows it, planning errors carry it.
 */
const ADMIN_TOKEN = "op-token-reasons-5b2d8e"
const CREDENTIAL = "Bearer mcp-reasons-credential-3e8f1a"

const servers: Array<Server> = []
const listen = async (server: Server) => {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}
const answering = (status: number, body: string, headers: Record<string, string> = {}): RequestListener => (_, res) => {
  res.writeHead(status, { "content-type": "text/plain", ...headers })
  res.end(body)
}

/** A self-signed certificate made now, for 127.0.0.1 (so only its signer is wrong). */
const selfSigned = () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-tls-"))
  try {
    const args = "req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1"
    execFileSync("openssl", [...args.split(" "), "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], {
      stdio: "ignore"
    })
    return { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const http = (id: string, url: string, extra: Partial<McpServerConfig> = {}) =>
  ({ id, transport: "http", url, headers: {}, callTimeoutMs: 5_000, listTimeoutMs: 5_000, ...extra }) as McpServerConfig
const stdio = (id: string, command: string, args: ReadonlyArray<string> = []) =>
  ({ id, transport: "stdio", command, args, env: {}, callTimeoutMs: 5_000, listTimeoutMs: 5_000 }) as McpServerConfig

let gateway: TestGateway
const ports: Record<string, number> = {}

beforeAll(async () => {
  ports.closed = await freePort()
  ports.tls = await listen(createHttpsServer(selfSigned(), answering(200, "{}")))
  ports.unauthorized = await listen(createServer(answering(401, `{"error":"invalid_token"}`)))
  // Echoes the credential it was sent, as a careless server might.
  ports.failing = await listen(
    createServer((req, res) => answering(500, `boom for ${req.headers.authorization}`)(req, res))
  )
  ports.redirecting = await listen(createServer(answering(302, "", { location: "http://127.0.0.1:1/elsewhere" })))
  // Accepts the connection, never answers.
  ports.silent = await listen(createServer(() => {}))
  gateway = await startGateway({
    config: {
      adminToken: Redacted.make(ADMIN_TOKEN),
      mcpServers: [
        http("dns", "http://parley-test.invalid/mcp"),
        http("refused", `http://127.0.0.1:${ports.closed}/mcp`),
        http("badport", "http://127.0.0.1:9/mcp"),
        http("tls", `https://127.0.0.1:${ports.tls}/mcp`),
        http("unauthorized", `http://127.0.0.1:${ports.unauthorized}/mcp`),
        http("failing", `http://127.0.0.1:${ports.failing}/mcp`, {
          headers: { authorization: Redacted.make(CREDENTIAL) }
        }),
        http("redirecting", `http://127.0.0.1:${ports.redirecting}/mcp`),
        http("silent", `http://127.0.0.1:${ports.silent}/mcp`, { listTimeoutMs: 300 }),
        stdio("missing", "parley-no-such-command"),
        stdio("exits", "sh", ["-c", "exit 3"])
      ]
    }
  })
}, 30_000)
afterAll(async () => {
  await gateway?.close()
  for (const server of servers) {
    server.closeAllConnections()
    server.close()
  }
})

describe("an unreachable MCP server's reason says what failed", () => {
  let listed: Record<string, { status: string; reason?: string }>
  let text: string

  beforeAll(async () => {
    const response = await fetch(`${gateway.url}/admin/v1/mcp-servers`, { headers: bearer(ADMIN_TOKEN) })
    expect(response.status).toBe(200)
    text = await response.text()
    const body = JSON.parse(text) as { data: { servers: Array<{ id: string; status: string; reason?: string }> } }
    listed = Object.fromEntries(body.data.servers.map((server) => [server.id, server]))
  }, 30_000)

  const reasonOf = (id: string) => {
    expect(listed[id]?.status).toBe("unreachable")
    return listed[id]?.reason
  }

  it("a name that does not resolve", () => {
    expect(reasonOf("dns")).toBe("DNS: name not found: parley-test.invalid")
  })

  it("a closed port", () => {
    expect(reasonOf("refused")).toBe(`connection refused by 127.0.0.1:${ports.closed}: nothing listens there`)
  })

  it("a port that fetch refuses to use", () => {
    expect(reasonOf("badport")).toBe(
      `port 9 is one that fetch never connects to (a "bad port" of the Fetch standard): serve it on another port`
    )
  })

  it("a self-signed certificate, with the error's code", () => {
    expect(reasonOf("tls")).toBe(
      `TLS: the certificate of 127.0.0.1:${ports.tls} is not accepted: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`
    )
  })

  it("a 401, with what to check and what the server said", () => {
    expect(reasonOf("unauthorized")).toBe(
      `the server answered HTTP 401 Unauthorized (check the credentials in its headers): {"error":"invalid_token"}`
    )
  })

  it("a 500, with the server's words and never the credential they echo", () => {
    expect(reasonOf("failing")).toBe("the server answered HTTP 500 Internal Server Error: boom for [redacted]")
    expect(text).not.toContain("mcp-reasons-credential")
  })

  it("a redirect, which is not followed", () => {
    expect(reasonOf("redirecting")).toBe(
      "the server answered with a redirect (HTTP 302), which parley does not follow"
    )
  })

  it("a server that accepts and never answers: the timeout, in ms", () => {
    expect(reasonOf("silent")).toBe("timed out: no answer within 300 ms")
  })

  it("a stdio command that is not there", () => {
    expect(reasonOf("missing")).toBe("command not found: parley-no-such-command (neither on PATH nor a file)")
  })

  it("a stdio command that exits", () => {
    expect(reasonOf("exits")).toBe("the command sh exited (or closed its output) before it answered")
  })

  it("planning a request names the reason too", async () => {
    const { secret } = await gateway.createKey({ tools: ["*"] })
    const refused = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ allowedTools: ["refused__echo"], contextStrategy: "error" }),
      bearer(secret)
    )
    expect(refused.status).toBe(503)
    expect((await refused.json()).message).toBe(
      `MCP server "refused" is unavailable: connection refused by 127.0.0.1:${ports.closed}: nothing listens there`
    )
  })
})
