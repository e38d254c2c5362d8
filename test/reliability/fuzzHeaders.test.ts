import { afterAll, beforeAll, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { type GatewayProcess, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"
import { runLoad } from "../support/reliability/load.ts"
import { record } from "../support/reliability/record.ts"
import { sized } from "../support/reliability/size.ts"

/**
 * Fuzzed methods, paths and headers (bodies are fuzzed in fuzzBodies.test.ts):
 * 100,000 requests at full size, from a seeded generator so a failure can be
 * replayed. Every answer has a documented status; none is a 500.
 */
// 406: /mcp when Accept names neither application/json nor text/event-stream, as MCP's streamable HTTP requires.
const DOCUMENTED = new Set([200, 201, 204, 400, 401, 403, 404, 405, 406, 409, 413, 431, 503])

let upstream: Upstream
let gateway: GatewayProcess

beforeAll(async () => {
  upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY, recordRequests: false })
  gateway = await startGatewayProcess({ upstreamUrl: upstream.url })
})
afterAll(async () => {
  await gateway?.stop()
  await upstream?.close()
})

/** mulberry32: small, seeded, good enough to pick fuzz cases. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const SEGMENTS = [
  "api",
  "v1",
  "chat",
  "models",
  "tools",
  "prompt-types",
  "config-schema",
  "health",
  "ready",
  "openapi.json",
  "docs",
  "admin",
  "mcp",
  "API",
  "V1",
  "CHAT",
  "..",
  ".",
  "",
  "%2e%2e",
  "%2F",
  "%00",
  "%ZZ",
  "%63hat",
  "chat;x=1",
  "*",
  "~",
  "a".repeat(300),
  "ü",
  "%E2%80%AE",
  "\\"
]
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"] as const

const fuzzCase = (key: string, seed: number) => {
  const next = random(seed)
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!
  const method = pick(METHODS)
  const prefix = next() < 0.6 ? "/api/v1/" : "/"
  const segments = Array.from({ length: Math.floor(next() * 4) }, () => pick(SEGMENTS))
  const query = next() < 0.3 ? `?${pick(["stream=false", "a=%", "x=" + "y".repeat(2000), "&&", "model=test/m1"])}` : ""
  const path = encodeURI(decodeURIComponentSafe(prefix + segments.join("/"))) + query
  const authorization = pick([
    `Bearer ${key}`,
    `bearer ${key}`,
    `Bearer  ${key}`,
    `Bearer ${key} x`,
    `Bearer ${key.toUpperCase()}`,
    "Bearer",
    "Basic dXNlcjpwYXNz",
    `Token ${key}`,
    `Bearer ${key.slice(0, -1)}`,
    "Bearer pk_" + "z".repeat(5000),
    ""
  ])
  const headers: Record<string, string> = {
    ...(authorization === "" ? {} : { authorization }),
    "content-type": pick([
      "application/json",
      "text/plain",
      "application/json; charset=latin1",
      "multipart/form-data",
      ""
    ]),
    "x-correlation-id": pick(["abc", "", "x".repeat(500), "../../etc", "id with spaces", "e%20"]),
    accept: pick(["*/*", "text/event-stream", "application/json", "image/png"]),
    ...(next() < 0.2 ? { "x-parley-sandbox": pick(["sbx_x", "", "../.."]) } : {}),
    ...(next() < 0.1 ? { "x-fuzz": "v".repeat(Math.floor(next() * 20_000)) } : {})
  }
  for (const [name, value] of Object.entries(headers)) if (value === "") delete headers[name]
  const body = method === "POST" || method === "PUT" || method === "PATCH"
    ? JSON.stringify({ model: "test/m1", stream: next() < 0.5, messages: [{ role: "user", content: "fuzz" }] })
    : undefined
  return { label: `${method} ${prefix}`, method, path, headers, ...(body === undefined ? {} : { body }) }
}

const decodeURIComponentSafe = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

it("fuzzed headers and paths: only documented statuses, zero 500s", async ({ task }) => {
  const total = sized(3_000, 100_000)
  const seed = 11
  const undocumented: Array<string> = []
  const result = await runLoad({
    url: gateway.url,
    concurrency: 16,
    durationMs: sized(120_000, 1_800_000),
    maxRequests: total,
    next: (i) => fuzzCase(gateway.key, seed * 1_000_003 + i)
  })
  for (const [status, count] of Object.entries(result.statuses)) {
    if (!DOCUMENTED.has(Number(status))) undocumented.push(`${status} × ${count}`)
  }
  const serverErrors = Object.entries(result.statuses).filter(([status]) => Number(status) >= 500 && status !== "503")
  record(task, `${total.toLocaleString("en")} requests (seed ${seed})`, {
    statuses: Object.entries(result.statuses).map(([status, count]) => `${status}×${count}`).join(" "),
    failures: Object.values(result.failures).reduce((sum, count) => sum + count, 0)
  })
  expect(result.sent).toBeGreaterThanOrEqual(total)
  expect(result.failures, result.failed.join("\n")).toEqual({})
  expect(serverErrors).toEqual([])
  expect(undocumented).toEqual([])
}, 2_000_000)
