import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { makeTestTool } from "../support/tools.ts"

/**
 * Security matrix, allow-lists: a key allowed model `test/m1` and tool `echo`
 * never gets `test/m2` or `secret_tool` to the provider, whatever the request
 * does — case, duplicate JSON keys, promptType sets, path tricks. The check is
 * what the upstream received, so a refusal of any kind passes and only a
 * bypass fails.
 */
let gateway: TestGateway
let restricted: string

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" }), makeTestTool({ name: "secret_tool" })] })
  ;({ secret: restricted } = await gateway.createKey({ models: ["test/m1"], tools: ["echo"] }))
})
afterAll(() => gateway.close())

/** POST with the path sent exactly as written (fetch would normalise it). */
const rawPost = (path: string, body: string): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(gateway.url)
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        headers: { authorization: `Bearer ${restricted}`, "content-type": "application/json" }
      },
      (res) => {
        let text = ""
        res.on("data", (data: Buffer) => (text += data.toString("utf8")))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
      }
    )
    req.on("error", reject)
    req.end(body)
  })

/** What the provider was asked for since `from`: models and offered tool names. */
const reached = (from: number) => {
  const seen = gateway.upstream.requests.slice(from)
  return {
    models: new Set(seen.map((recorded) => String(recorded.body.model))),
    tools: new Set(seen.flatMap((recorded) => (recorded.body.tools ?? []).map((tool: any) => tool.function.name)))
  }
}

const messages = `"messages":[{"role":"user","content":"hi"}],"stream":false`
const bypasses: ReadonlyArray<readonly [string, string, string]> = [
  ["model in another case", "/api/v1/chat", `{"model":"TEST/M2",${messages}}`],
  ["model with spaces", "/api/v1/chat", `{"model":" test/m2 ",${messages}}`],
  ["model with a path trick", "/api/v1/chat", `{"model":"test/m1/../m2",${messages}}`],
  ["duplicate model key", "/api/v1/chat", `{"model":"test/m1",${messages},"model":"test/m2"}`],
  ["duplicate model key, reversed", "/api/v1/chat", `{"model":"test/m2",${messages},"model":"test/m1"}`],
  ["tool in another case", "/api/v1/chat", `{"model":"test/m1",${messages},"allowedTools":["SECRET_TOOL"]}`],
  [
    "tool beside an allowed one",
    "/api/v1/chat",
    `{"model":"test/m1",${messages},"allowedTools":["echo","secret_tool"]}`
  ],
  [
    "duplicate allowedTools key",
    "/api/v1/chat",
    `{"model":"test/m1",${messages},"allowedTools":["echo"],"allowedTools":["secret_tool"]}`
  ],
  ["tool by toolContext only", "/api/v1/chat", `{"model":"test/m1",${messages},"toolContext":{"secret_tool":{}}}`],
  ["promptType set", "/api/v1/chat", `{"model":"test/m1",${messages},"promptType":"bossJobsiteSystemPrompt"}`],
  [
    "promptType in another case",
    "/api/v1/chat",
    `{"model":"test/m1",${messages},"promptType":"BOSSJOBSITESYSTEMPROMPT"}`
  ],
  [
    "promptType as a list",
    "/api/v1/chat",
    `{"model":"test/m1",${messages},"promptType":["generalComputerSystemPrompt"]}`
  ],
  ["path with a trailing slash", "/api/v1/chat/", `{"model":"test/m2",${messages}}`],
  ["path with a double slash", "/api/v1//chat", `{"model":"test/m2",${messages}}`],
  ["path with a dot segment", "/api/v1/./chat", `{"model":"test/m2",${messages}}`],
  ["path with ..", "/api/v2/../v1/chat", `{"model":"test/m2",${messages}}`],
  ["path in capitals", "/API/V1/CHAT", `{"model":"test/m2",${messages}}`],
  ["path percent-encoded", "/api/v1/%63hat", `{"model":"test/m2",${messages}}`],
  ["path with a query", "/api/v1/chat?model=test/m1", `{"model":"test/m2",${messages}}`],
  ["path with a matrix parameter", "/api/v1/chat;model=test/m1", `{"model":"test/m2",${messages}}`]
]

describe("security: allow-lists cannot be bypassed", () => {
  it.each(bypasses)("%s", async (_name, path, body) => {
    const from = gateway.upstream.requests.length
    const answer = await rawPost(path, body)
    const { models, tools } = reached(from)
    expect([...models].filter((model) => model !== "m1"), answer.text).toEqual([])
    expect([...tools].filter((tool) => tool !== "echo"), answer.text).toEqual([])
    if (answer.status >= 400) expect(answer.status, answer.text).toBeLessThan(500)
  })
})
