import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { type FakeServer, startFakeServer } from "../support/fakes/server.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { type GatewayProcess, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"

/**
 * Security matrix, SSRF: every URL the gateway fetches on a client's behalf —
 * browser pages, webhook URLs, a partner API named in tool context, URLs of
 * message parts (issue 11 item 1) — is refused when it names a loopback
 * address, under the default configuration. The loopback target counts every
 * request it gets: it must get none.
 */
let upstream: Upstream
let target: FakeServer
let gateway: GatewayProcess

beforeAll(async () => {
  upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY })
  target = await startFakeServer(() => ({ status: 200, body: "internal secret document" }))
  gateway = await startGatewayProcess({ upstreamUrl: upstream.url })
})
afterAll(async () => {
  await gateway?.stop()
  await Promise.all([upstream?.close(), target?.close()])
})

const chat = async (body: Record<string, unknown>) => {
  const response = await fetch(`${gateway.url}/api/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${gateway.key}` },
    body: JSON.stringify({ model: "test/m1", stream: false, messages: [{ role: "user", content: "go" }], ...body })
  })
  return { status: response.status, text: await response.text() }
}

/** The model calls `tool` once with `input`, then answers. */
const toolCall = (name: string, input: unknown) =>
  upstream.enqueue({ type: "tool-calls", calls: [{ name, arguments: input }] }, { type: "text", text: "done" })

describe("security: SSRF refused for every URL the gateway fetches", () => {
  it("browser navigation to loopback", async () => {
    toolCall("browser", { action: "navigate", url: `${target.url}/admin` })
    const answer = await chat({ allowedTools: ["browser"] })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.text).toContain("refused")
    expect(target.received).toHaveLength(0)
  }, 60_000)

  it("webhook URLs on loopback (workplace_message)", async () => {
    toolCall("workplace_message", { text: "hi" })
    const answer = await chat({
      allowedTools: ["workplace_message"],
      toolContext: { workplace_message: { platform: "slack", webhookUrl: `${target.url}/hook` } }
    })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.text).toContain("output-error")
    expect(target.received).toHaveLength(0)
  })

  it("a partner API on loopback named in tool context (chat_message)", async () => {
    toolCall("chat_message", { to: "cand-1", text: "hi" })
    const answer = await chat({
      allowedTools: ["chat_message"],
      context: { partnerToken: "t", defaultMessengerId: "acct-1" },
      toolContext: { chat_message: { partnerApiUrl: target.url } }
    })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.text).toContain("output-error")
    expect(target.received).toHaveLength(0)
  })

  it.each([
    ["text file", "127.0.0.1", "text/plain"],
    ["text file", "localhost", "text/plain"],
    ["image", "localhost", "image/png"]
  ])("a %s part URL on %s → 400 naming the part, nothing fetched", async (_kind, host, mediaType) => {
    const part = { type: "file", mediaType, url: `${target.url.replace("127.0.0.1", host)}/secret` }
    const answer = await chat({
      messages: [{ role: "user", parts: [{ type: "text", text: "summarise this" }, part] }]
    })
    expect(target.received).toHaveLength(0)
    expect(answer.status, answer.text).toBe(400)
    expect(JSON.parse(answer.text).details.error).toContain("messages[0].parts[1]")
    expect(answer.text).not.toContain("internal secret document")
  })
})
