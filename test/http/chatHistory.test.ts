import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" })] })
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const user = (text: string) => ({ role: "user", parts: [{ type: "text", text }] })

/** Posts a conversation both ways; each answer must be the same 400, with nothing sent upstream. */
const refusedBothWays = async (messages: ReadonlyArray<unknown>) => {
  const requestsBefore = gateway.upstream.requests.length
  const bodies = []
  for (const stream of [true, false]) {
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ stream, messages, allowedTools: ["echo"] }),
      bearer(secret)
    )
    expect(response.status).toBe(400)
    expect(response.headers.get("content-type")).toContain("application/json")
    const body = await response.json()
    expect(body).toMatchObject({ error: "BadRequest", statusCode: 400, correlationId: expect.any(String) })
    bodies.push(body)
  }
  expect(gateway.upstream.requests.length).toBe(requestsBefore)
  expect(bodies[0].message).toBe(bodies[1].message)
  return bodies[0]
}

describe("a malformed history is the client's mistake (docs/DESIGN.md §3.18)", () => {
  it("a tool call without its result is a 400 naming the part", async () => {
    const body = await refusedBothWays([
      user("Echo hi"),
      {
        role: "assistant",
        parts: [{
          type: "dynamic-tool",
          toolName: "echo",
          toolCallId: "c1",
          state: "input-available",
          input: { text: "hi" }
        }]
      },
      user("and?")
    ])
    expect(body.message).toMatch(
      /^Invalid history: "messages\[1\]\.parts\[0\]" is a call of tool "echo" \(toolCallId "c1"\) without its result/
    )
    expect(body.details.error).toMatch(/^"messages\[1\]\.parts\[0\]" /)
  })

  it("names the part of a static tool call left unanswered at the end", async () => {
    const body = await refusedBothWays([
      user("Echo hi"),
      {
        role: "assistant",
        parts: [{ type: "text", text: "Calling" }, {
          type: "tool-echo",
          toolCallId: "c2",
          state: "input-available",
          input: { text: "hi" }
        }]
      }
    ])
    expect(body.details.error).toContain(`"messages[1].parts[1]" is a call of tool "echo"`)
  })

  it("an unknown part type is a 400 naming the part", async () => {
    const body = await refusedBothWays([user("Hi"), { role: "assistant", parts: [{ type: "telepathy", text: "x" }] }])
    expect(body.details.error).toContain(`"messages[1].parts[0].type" is not a known part type`)
  })

  it("what only the conversion finds is a 400 too, before any stream starts", async () => {
    const body = await refusedBothWays([{
      role: "user",
      parts: [{ type: "file", mediaType: "image/png", url: "not a url" }]
    }])
    expect(body.message).toMatch(/^Invalid history: "messages" cannot be sent to test: /)
    expect(body.details.error).toMatch(/^"messages" cannot be sent to test: /)
  })
})
