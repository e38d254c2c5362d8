import { rmSync } from "node:fs"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { dataDirectory, eventually, marked, processesWith } from "../sandbox/support.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { type GatewayProcess, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"

/**
 * docs/DESIGN.md §8, under load: the gateway as an operator runs it, 50
 * streams and 20 JSON requests in flight (some in a bash tool in a real
 * sandbox), then SIGTERM with a 2 s grace. Every client gets a whole answer,
 * or a stream ended by an `error` and a `finish` chunk, or a 503 in the
 * spec's error body; nobody hangs or is cut off; the sandbox processes are
 * gone; the process exits 0 and nothing listens on its port.
 */
const GRACE_MS = 2_000
const MARKER = `parley-shutdown-${process.pid}`

let upstream: Upstream
let gateway: GatewayProcess
let base: string

/** What the user message asks the scripted model for. */
const script = (upstream: Upstream) =>
  upstream.respondWith((body) => {
    const last = body.messages.at(-1)
    if (last?.role === "tool") return { type: "text", text: "the tool answered" }
    const ask = String(last?.content)
    if (ask === "quick") return { type: "text", text: "a quick answer", delayMs: 200 }
    if (ask === "slow") return { type: "text", text: "word ".repeat(200), chunks: 200, chunkDelayMs: 100 }
    if (ask === "bash") {
      return {
        type: "tool-calls",
        calls: [{ name: "bash", arguments: { command: marked(MARKER, "sleep 120; true") } }]
      }
    }
    return { type: "hang" }
  })

beforeAll(async () => {
  upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY })
  script(upstream)
  const data = dataDirectory()
  base = data.base
  gateway = await startGatewayProcess({
    upstreamUrl: upstream.url,
    // Every bash call of the test runs at once (the default lets 8 of one sandbox run).
    env: {
      PARLEY_SANDBOX_DIR: data.sandboxes,
      PARLEY_SANDBOX_CONCURRENCY: "32",
      PARLEY_SHUTDOWN_GRACE: `${GRACE_MS}ms`
    }
  })
}, 60_000)

afterAll(async () => {
  await gateway?.stop()
  await upstream?.close()
  rmSync(base, { recursive: true, force: true })
})

type Outcome = "complete" | "error-then-finish" | "503"

const chunksOf = (text: string) =>
  text.split("\n").filter((line) => line.startsWith("data: {")).map((line) => JSON.parse(line.slice(6)))

/** What one client got; throws when it was cut off or got something else. */
const settle = async (response: Response, stream: boolean): Promise<Outcome> => {
  const text = await response.text()
  if (response.status === 503) {
    const body = JSON.parse(text)
    expect(body).toMatchObject({ error: "ServiceUnavailable", statusCode: 503, message: expect.any(String) })
    return "503"
  }
  expect(response.status, text).toBe(200)
  if (!stream) {
    expect(JSON.parse(text).success).toBe(true)
    return "complete"
  }
  expect(text.endsWith("data: [DONE]\n\n"), text.slice(-300)).toBe(true)
  const chunks = chunksOf(text)
  const types = chunks.map((chunk) => chunk.type)
  expect(types.at(-1)).toBe("finish")
  const error = chunks.find((chunk) => chunk.type === "error")
  if (error === undefined) return "complete"
  expect(error.errorText).toMatch(/shutting down/)
  expect(types.indexOf("error")).toBe(types.length - 2)
  // Every part the stop interrupted was ended first (docs/DESIGN.md §3.3).
  const started = types.filter((type) => type === "text-start").length
  expect(types.filter((type) => type === "text-end").length).toBe(started)
  return "error-then-finish"
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

describe("shutdown under load", () => {
  it("answers every client, kills the tools, exits 0 and leaves nothing listening", async () => {
    const { id: sandboxId } = JSON.parse(await gateway.cli("sandbox", "create", "--json"))
    const send = (ask: string, stream: boolean) =>
      postJson(
        `${gateway.url}/api/v1/chat`,
        chatBody({
          model: "test/m2",
          stream,
          messages: [{ role: "user", content: ask }],
          ...(ask === "bash" ? { allowedTools: ["bash"], sandboxId } : {})
        }),
        bearer(gateway.key)
      ).then((response) => settle(response, stream))
    const asks = [
      ...Array.from(
        { length: 50 },
        (_, i) => ({ ask: ["quick", "slow", "slow", "bash", "hang"][i % 5]!, stream: true })
      ),
      ...Array.from({ length: 20 }, (_, i) => ({ ask: ["quick", "hang", "bash", "hang"][i % 4]!, stream: false }))
    ]
    const bashCount = asks.filter((ask) => ask.ask === "bash").length
    const outcomes = asks.map(({ ask, stream }) => send(ask, stream))
    // Every request in flight: the model called for each, and each bash command runs in the sandbox.
    expect(await eventually(() => upstream.requests.length >= asks.length - bashCount, 30_000, 100)).toBe(true)
    const running = await eventually(() => processesWith(MARKER).length >= bashCount, 30_000, 100)
    expect(running, `${processesWith(MARKER).length} of ${bashCount} running\n${gateway.output()}`).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 300))

    const signalled = Date.now()
    process.kill(gateway.pid, "SIGTERM")
    const settled = await Promise.allSettled(outcomes)
    const answeredWithin = Date.now() - signalled

    const cut = settled.flatMap((result, i) => result.status === "rejected" ? [`${i}: ${String(result.reason)}`] : [])
    expect(cut, gateway.output()).toEqual([])
    const counts = new Map<Outcome, number>()
    for (const result of settled) {
      if (result.status === "fulfilled") counts.set(result.value, (counts.get(result.value) ?? 0) + 1)
    }
    // The quick ones finish within the grace; the slow, hanging and bash ones are cancelled after it.
    expect(counts.get("complete")).toBeGreaterThanOrEqual(15)
    expect(counts.get("error-then-finish")).toBeGreaterThanOrEqual(25)
    expect(counts.get("503")).toBeGreaterThanOrEqual(10)
    expect(answeredWithin).toBeGreaterThanOrEqual(GRACE_MS - 200)
    expect(answeredWithin).toBeLessThan(GRACE_MS + 8_000)

    expect(await gateway.exited).toEqual({ code: 0, signal: null })
    expect(processesWith(MARKER)).toEqual([])
    expect(await listening(Number(new URL(gateway.url).port))).toBe(false)
  }, 120_000)
})
