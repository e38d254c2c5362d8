import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import {
  httpServerEntry,
  type RunningServer,
  startEverythingHttp,
  startRecordingProxy
} from "../support/mcp/everything.ts"

/**
 * docs/DESIGN.md §8 for the routed endpoints: a request still running when
 * the grace is over answers 503 in the spec's error body, with its
 * correlation id and `Connection: close`, as the chat route does, and its
 * request log line says so. The slow request is a real one: a /mcp tool call
 * relayed to the reference MCP server's long-running operation.
 */
const GRACE_MS = 300
const TOOL = "everything__trigger-long-running-operation"

let everything: RunningServer
let proxy: RunningServer & { readonly posted: Array<{ method?: string; id?: unknown; params?: any }> }
let gateway: TestGateway
let stopped: Promise<void> | undefined
const logs: Array<string> = []

beforeAll(async () => {
  everything = await startEverythingHttp()
  proxy = await startRecordingProxy(everything.url)
  gateway = await startGateway({
    config: {
      mcpServers: [httpServerEntry("everything", proxy.url)],
      operations: { shutdownGraceMs: GRACE_MS, corsOrigins: [] }
    },
    observe: { logSink: (line) => void logs.push(line) }
  })
}, 30_000)

afterAll(async () => {
  await (stopped ?? gateway?.close())
  await proxy?.close()
  await everything?.close()
})

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/** A POST on its own connection, with the headers as the client reads them (`Connection` included). */
const post = (url: string, body: unknown, headers: Record<string, string>) =>
  new Promise<Answer>((resolve, reject) => {
    const text = JSON.stringify(body)
    const sent = request(url, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers }
    }, (response) => {
      let received = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (received += chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: received }))
      response.on("error", reject)
    })
    sent.on("error", reject)
    sent.end(text)
  })

const eventually = async <A>(find: () => A | undefined, ms = 10_000) => {
  const deadline = Date.now() + ms
  let found = find()
  while (found === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    found = find()
  }
  return found
}

describe("shutdown of a routed request (docs/DESIGN.md §8)", () => {
  it("answers 503 in the spec's error body with its correlation id and closes the connection", async () => {
    const { secret } = await gateway.createKey({ tools: [TOOL] })
    const correlationId = "drain-routed-1"
    const answered = post(`${gateway.url}/mcp`, {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: TOOL, arguments: { duration: 30, steps: 30 } }
    }, {
      authorization: `Bearer ${secret}`,
      accept: "application/json, text/event-stream",
      "x-correlation-id": correlationId
    })
    const call = await eventually(() => proxy.posted.find((message) => message.method === "tools/call"))
    expect(call, "the tool call reached the MCP server").toBeDefined()

    const stopping = Date.now()
    stopped = gateway.close()
    const answer = await answered
    const after = Date.now() - stopping
    await stopped

    expect(answer.status, answer.body).toBe(503)
    expect(answer.headers["x-correlation-id"]).toBe(correlationId)
    expect(answer.headers.connection).toBe("close")
    expect(answer.headers["content-type"]).toMatch(/^application\/json/)
    expect(JSON.parse(answer.body)).toEqual({
      error: "ServiceUnavailable",
      message: "The server is shutting down; retry the request",
      statusCode: 503,
      correlationId
    })
    // Cancelled once the grace is over, not before.
    expect(after).toBeGreaterThanOrEqual(GRACE_MS - 50)
    const line = logs.map((text) => JSON.parse(text)).find((entry) =>
      entry.msg === "request" && entry.correlationId === correlationId
    )
    expect(line, logs.join("\n")).toMatchObject({ path: "/mcp", status: 503, outcome: "ServerShuttingDown" })
  }, 30_000)
})
