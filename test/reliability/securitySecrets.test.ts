import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { type FakeServer, startFakeServer } from "../support/fakes/server.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { type GatewayProcess, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"

/**
 * Security matrix, secrets: API keys, the provider key, partner tokens and
 * webhook secrets appear in no answer and no line the gateway logs (its
 * stdout and stderr, at LOG_LEVEL=debug), even when a remote echoes them back
 * in an error. Loopback fakes are allowed here (`PARLEY_OUTBOUND_ALLOWED_HOSTS`)
 * so the secrets really travel.
 */
const PARTNER_TOKEN = "partner-token-rel-5f1e"
const WEBHOOK_SECRET = "hook-secret-rel-9a7c"
const FEISHU_SECRET = "feishu-sign-secret-rel-3d2b"

let upstream: Upstream
let echoing: FakeServer
let gateway: GatewayProcess
const answers: Array<string> = []

beforeAll(async () => {
  upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY })
  // A hostile remote: refuses everything and quotes what it was sent.
  echoing = await startFakeServer((received) => ({
    status: 401,
    body: {
      error: { code: "denied", message: `denied ${received.url} ${JSON.stringify(received.headers)} ${received.raw}` }
    }
  }))
  gateway = await startGatewayProcess({
    upstreamUrl: upstream.url,
    env: { LOG_LEVEL: "debug", PARLEY_OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" }
  })
})
afterAll(async () => {
  await gateway?.stop()
  await Promise.all([upstream?.close(), echoing?.close()])
})

const send = async (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${gateway.key}` }) => {
  const response = await fetch(`${gateway.url}/api/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })
  const text = `${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`
  answers.push(text)
  return text
}

const base = { model: "test/m1", stream: false, messages: [{ role: "user", content: "go" }] }

describe("security: secrets in no log line or answer", () => {
  it("a provider that echoes its key, partner and webhook remotes that echo theirs, bad keys", async () => {
    // The provider refuses and quotes the key it was given.
    upstream.enqueue({
      type: "error",
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${UPSTREAM_API_KEY}` } }
    })
    await send(base)
    upstream.enqueue({
      type: "error",
      status: 400,
      body: { error: { message: `bad request with ${UPSTREAM_API_KEY}` } }
    })
    await send({ ...base, stream: true })
    // chat_message to a partner that quotes the token back.
    upstream.enqueue(
      { type: "tool-calls", calls: [{ name: "chat_message", arguments: { to: "cand-1", text: "hi" } }] },
      {
        type: "text",
        text: "sent"
      }
    )
    await send({
      ...base,
      allowedTools: ["chat_message"],
      context: { partnerToken: PARTNER_TOKEN, defaultMessengerId: "acct-1" },
      toolContext: { chat_message: { partnerApiUrl: echoing.url } }
    })
    // workplace_message to webhooks that quote their URL (whose path is the secret) and body.
    for (const platform of ["slack", "feishu"]) {
      upstream.enqueue({ type: "tool-calls", calls: [{ name: "workplace_message", arguments: { text: "hi" } }] }, {
        type: "text",
        text: "posted"
      })
      await send({
        ...base,
        allowedTools: ["workplace_message"],
        toolContext: {
          workplace_message: { platform, webhookUrl: `${echoing.url}/hook/${WEBHOOK_SECRET}`, secret: FEISHU_SECRET }
        }
      })
    }
    // API keys in every malformed form.
    for (
      const authorization of [`Token ${gateway.key}`, `Bearer ${gateway.key}x`, `Basic ${gateway.key}`, gateway.key]
    ) {
      await send(base, { authorization })
    }
    expect(echoing.received.length).toBeGreaterThanOrEqual(3)

    const seen = [...answers, ...upstream.requests.flatMap((request) => JSON.stringify(request.body.messages))]
    const logged = gateway.output()
    for (const secret of [gateway.key, UPSTREAM_API_KEY, PARTNER_TOKEN, WEBHOOK_SECRET, FEISHU_SECRET]) {
      expect(logged, `the log holds ${secret}`).not.toContain(secret)
      for (const text of seen) expect(text, `an answer or the model's input holds ${secret}`).not.toContain(secret)
    }
  })
})
