import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { withParleyClient } from "../support/mcp/parleyClient.ts"
import { makeTestTool } from "../support/tools.ts"

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: number | string
  readonly boolValue?: boolean
  readonly arrayValue?: unknown
}

interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly attributes: Record<string, unknown>
}

/** An OTLP/HTTP JSON receiver: what the exporter posts to /v1/traces, spans flattened. */
const spans: Array<ReceivedSpan> = []
let receiver: Server
let endpoint: string

const valueOf = (value: OtlpValue): unknown =>
  value.stringValue ?? (value.intValue === undefined ? value.boolValue ?? value.arrayValue : Number(value.intValue))

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      expect(req.url).toBe("/v1/traces")
      expect(req.headers["content-type"]).toContain("application/json")
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            const attributes: Record<string, unknown> = {}
            for (const attribute of span.attributes ?? []) attributes[attribute.key] = valueOf(attribute.value)
            spans.push({ ...span, attributes })
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`
})
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())))

/** Runs one tool-loop request through a traced gateway; closing it flushes its spans to the receiver. */
const tracedToolLoop = async (traceContent: boolean) => {
  const gateway = await startGateway({
    tools: [makeTestTool({ name: "echo" })],
    observability: { tracesEndpoint: endpoint, traceContent }
  })
  const { secret } = await gateway.createKey()
  gateway.upstream.enqueue(
    {
      type: "tool-calls",
      calls: [{ id: "call_1", name: "echo", arguments: { text: "ping" } }],
      usage: { promptTokens: 10, completionTokens: 5 }
    },
    { type: "text", text: "The tool said ping", usage: { promptTokens: 30, completionTokens: 7 } }
  )
  const correlationId = `trace-${traceContent}`
  const response = await postJson(
    `${gateway.url}/api/v1/chat`,
    chatBody({ allowedTools: ["echo"], prune: true }),
    { ...bearer(secret), "x-correlation-id": correlationId }
  )
  expect(response.status).toBe(200)
  await response.text()
  await gateway.close()
  const root = spans.find((span) => span.attributes["parley.correlation_id"] === correlationId)
  expect(root).toBeDefined()
  const tree = spans.filter((span) => span.traceId === root!.traceId)
  const named = (name: string) => tree.filter((span) => span.name === name)
  return { root: root!, tree, named }
}

describe("traces over OTLP (docs/DESIGN.md §8)", () => {
  it("a tool loop: request, authentication, prune, model calls and the tool call in one tree with GenAI attributes", async () => {
    const { named, root, tree } = await tracedToolLoop(false)
    expect(root.name).toBe("POST /api/v1/chat")
    expect(root.parentSpanId ?? "").toBe("")
    expect(root.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.response.status_code": 200,
      "gen_ai.request.model": "test/m1",
      "parley.outcome": "ok",
      "parley.protocol": "ui"
    })
    const childOfRoot = (span: ReceivedSpan) => expect(span.parentSpanId).toBe(root.spanId)

    const [authenticate] = named("authenticate")
    childOfRoot(authenticate!)
    const [prune] = named("Pruner.prune")
    childOfRoot(prune!)

    const calls = named("chat m1")
    expect(calls).toHaveLength(2)
    calls.forEach(childOfRoot)
    expect(calls.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "test",
        "gen_ai.request.model": "m1",
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 5
      }),
      expect.objectContaining({ "gen_ai.usage.input_tokens": 30, "gen_ai.usage.output_tokens": 7 })
    ])

    const [tool] = named("execute_tool echo")
    childOfRoot(tool!)
    expect(tool!.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "gen_ai.tool.call.id": "call_1"
    })
    // A run's tool call says its protocol through its request's span, not its own.
    expect(tool!.attributes).not.toHaveProperty("parley.protocol")
    // No content unless PARLEY_TRACE_CONTENT=true.
    expect(JSON.stringify(tree)).not.toContain("Hello there")
    expect(JSON.stringify(tree)).not.toContain("ping")
  })

  it("with PARLEY_TRACE_CONTENT=true the spans carry the messages and the tool's arguments", async () => {
    const { named } = await tracedToolLoop(true)
    const [first] = named("chat m1")
    expect(String(first!.attributes["gen_ai.input.messages"])).toContain("Hello there")
    const [tool] = named("execute_tool echo")
    expect(String(tool!.attributes["gen_ai.tool.call.arguments"])).toContain("ping")
  })

  it("a /mcp tools/call: the tool call's span under the request's, with the same GenAI attributes", async () => {
    const gateway = await startGateway({
      tools: [makeTestTool({ name: "echo" })],
      observability: { tracesEndpoint: endpoint, traceContent: false }
    })
    const { secret } = await gateway.createKey({ tools: ["echo"] })
    await withParleyClient(gateway.url, secret, (client) =>
      Effect.gen(function*() {
        const [echo] = yield* client.listTools()
        expect((yield* client.callTool({ tool: echo!, arguments: { text: "over mcp" } })).isError ?? false).toBe(false)
      }))
    await gateway.close()
    const tools = spans.filter((span) =>
      span.name === "execute_tool echo" && String(span.attributes["gen_ai.tool.call.id"]).startsWith("mcp_")
    )
    expect(tools).toHaveLength(1)
    const [tool] = tools
    expect(tool!.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "parley.protocol": "mcp"
    })
    const parent = spans.find((span) => span.spanId === tool!.parentSpanId)
    expect(parent?.name).toBe("POST /mcp")
    expect(parent?.attributes).toMatchObject({ "parley.protocol": "mcp" })
    expect(JSON.stringify(tools)).not.toContain("over mcp")
  })
})
