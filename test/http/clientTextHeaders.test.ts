import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { TOOLS_SKIPPED_MAX_LENGTH } from "../../src/http/chatHeaders.ts"
import { downMcpServer } from "../support/fuzz/startFuzzGateway.ts"
import { startGateway, type TestGateway, UPSTREAM_API_KEY } from "../support/gateway.ts"
import { postJson } from "../support/http.ts"
import { type GatewayProcess, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"

/** What a hostile client puts in a name: a bidi override, CR/LF, NUL, a C1 control, a comma, a percent sign, non-Latin-1. */
const HOSTILE = ["mcp\u202eevil", "a\r\nSet-Cookie: x=1", "nul\u0000", "c1\u009b", "a,b", "50%", "工具"]
const LONE = ["mcp\udc00\ud800", "x\ud800", "\udfff"]

interface Door {
  readonly path: string
  readonly headers: (secret: string) => Record<string, string>
  /** A body whose tools parley skips, named `names`; `stream` as given. */
  readonly skipping: (names: ReadonlyArray<string>, stream: boolean) => Record<string, unknown>
  /** Fields of a valid body set to a name holding a lone surrogate, with the field each 400 names. */
  readonly lone: (name: string) => ReadonlyArray<{ readonly body: Record<string, unknown>; readonly field: string }>
  /** The message of an error answer in the door's envelope. */
  readonly message: (body: any) => string
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` })
// parley's ui and Chat Completions doors skip only tools of an MCP server that cannot list them (contextStrategy=skip).
const downTools = (names: ReadonlyArray<string>) => ({
  allowedTools: names.map((name) => `down__${name}`),
  contextStrategy: "skip"
})
const openAiMessage = (body: any) => body.error.message

const hi = [{ role: "user", content: "Hi" }]
// The doors whose body is `messages` (ui, Chat Completions): `alongside` the allow-list's names before the lone one.
const messagesDoor = (path: string, alongside: ReadonlyArray<string>, message: Door["message"]): Door => ({
  path,
  headers: bearer,
  skipping: (names, stream) => ({ model: "test/m1", messages: hi, stream, ...downTools(names) }),
  lone: (name) => [
    { body: { model: `test/${name}`, messages: hi }, field: "model" },
    {
      body: { model: "test/m1", messages: hi, allowedTools: [...alongside, name] },
      field: `allowedTools[${alongside.length}]`
    }
  ],
  message
})

const anthropicBody = { model: "test/m1", max_tokens: 100, messages: hi }

const doors: ReadonlyArray<Door> = [
  messagesDoor("/api/v1/chat", ["echo"], (body) => body.message),
  messagesDoor("/v1/chat/completions", [], openAiMessage),
  {
    path: "/v1/responses",
    headers: bearer,
    skipping: (names, stream) => ({ model: "test/m1", input: "Hi", stream, tools: names.map((type) => ({ type })) }),
    lone: (name) => [
      { body: { model: "test/m1", input: "Hi", tools: [{ type: name }] }, field: "tools[0].type" },
      { body: { model: "test/m1", input: "Hi", tools: [{ type: "web_search", name }] }, field: "tools[0].name" },
      {
        body: { model: "test/m1", input: "Hi", tools: [{ type: "mcp", server_label: name }] },
        field: "tools[0].server_label"
      },
      { body: { model: `test/${name}`, input: "Hi" }, field: "model" }
    ],
    message: openAiMessage
  },
  {
    path: "/v1/messages",
    headers: (secret) => ({ "x-api-key": secret }),
    skipping: (names, stream) => ({
      ...anthropicBody,
      stream,
      tools: names.map((name) => ({ type: "web_search_20250305", name }))
    }),
    lone: (name) => [
      { body: { ...anthropicBody, tools: [{ type: "web_search_20250305", name }] }, field: "tools[0].name" },
      { body: { ...anthropicBody, mcp_servers: [{ type: "url", name }] }, field: "mcp_servers[0].name" },
      { body: { ...anthropicBody, model: `test/${name}` }, field: "model" }
    ],
    message: (body) => body.error.message
  }
]

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ config: { mcpServers: [downMcpServer] } })
  gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const post = (door: Door, body: Record<string, unknown>) =>
  postJson(`${gateway.url}${door.path}`, body, door.headers(secret))

const skippedNames = (header: string | null) => (header ?? "").split(",").map(decodeURIComponent)

describe("no response header made of client text (issue 32 part 1, docs/DESIGN.md §3.24)", () => {
  for (const door of doors) {
    for (const stream of [true, false]) {
      it(`${door.path}${stream ? " streamed" : ""}: a skipped tool's name that is no safe token is percent-encoded`, async () => {
        const prefix = door.path === "/api/v1/chat" || door.path === "/v1/chat/completions" ? "down__" : ""
        const names = ["web_search", ...HOSTILE]
        const response = await post(door, door.skipping(names, stream))
        const text = await response.text()
        expect(response.status, text).toBe(200)
        const header = response.headers.get("x-tools-skipped")
        expect(header).toMatch(/^[A-Za-z0-9._:/@+%,~-]+$/)
        expect(skippedNames(header)).toEqual(names.map((name) => `${prefix}${name}`))
        expect(header).toContain(`${prefix}mcp%E2%80%AEevil`)
        expect(header).toContain(`${prefix}web_search,`)
      })
    }

    it(`${door.path}: a name holding a lone surrogate is a 400 naming its field`, async () => {
      for (const name of LONE) {
        for (const { body, field } of door.lone(name)) {
          const response = await post(door, body)
          const answer = await response.json()
          expect(response.status, JSON.stringify(answer)).toBe(400)
          expect(door.message(answer)).toContain(`"${field}" must be well-formed Unicode`)
        }
      }
    })
  }

  it(`keeps X-Tools-Skipped under ${TOOLS_SKIPPED_MAX_LENGTH} characters, leaving out the names past it`, async () => {
    const names = Array.from({ length: 300 }, (_, i) => `hosted_tool_${i}`)
    const response = await post(doors[2]!, doors[2]!.skipping(names, false))
    expect(response.status).toBe(200)
    const header = response.headers.get("x-tools-skipped")!
    expect(header.length).toBeLessThanOrEqual(TOOLS_SKIPPED_MAX_LENGTH)
    const listed = header.split(",")
    expect(listed).toEqual(names.slice(0, listed.length))
    expect(listed.length).toBeGreaterThan(50)
  })
})

describe("the issue's bodies against the gateway as an operator runs it (issue 32)", () => {
  let upstream: Upstream
  let child: GatewayProcess

  beforeAll(async () => {
    upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY })
    upstream.respondWith(() => ({ type: "text", text: "ok" }))
    child = await startGatewayProcess({ upstreamUrl: upstream.url })
  }, 60_000)
  afterAll(async () => {
    await child?.stop()
    await upstream?.close()
  })

  it(
    "answers a streamed /v1/responses naming a hosted tool mcp\\u202eevil or mcp\\udc00\\ud800, and goes on serving",
    async () => {
      let exited = false
      void child.exited.then(() => (exited = true))
      for (const type of ["mcp\u202eevil", "mcp\udc00\ud800"]) {
        const response = await postJson(
          `${child.url}/v1/responses`,
          { model: "test/m1", input: "Hi", stream: true, tools: [{ type }] },
          bearer(child.key)
        )
        const text = await response.text()
        expect([200, 400], text).toContain(response.status)
        if (response.status === 200) expect(text).toContain("response.completed")
        const health = await fetch(`${child.url}/health`)
        expect(health.status).toBe(200)
      }
      expect(exited, child.output()).toBe(false)
    },
    30_000
  )
})
