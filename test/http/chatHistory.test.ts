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

  it.each([
    ["not a URL", "not a url", `must be an absolute http(s) URL or a data: URL`],
    ["a file: URL", "file:///etc/passwd", `must be an http(s) or data: URL (not file:)`],
    ["an ftp: URL", "ftp://example.com/a.png", `must be an http(s) or data: URL (not ftp:)`],
    ["a data: URL without data", "data:image/png;base64", `must be a data: URL of the form`],
    ["a data: URL without a media type", "data:;base64,AAAA", `must be a data: URL of the form`],
    ["a data: URL that is not base64", "data:text/plain,hello", `must be a data: URL of the form`],
    ["base64 that is not", "data:image/png;base64,%%%", `must carry base64 data after ";base64,"`]
  ])("a file part with %s is a 400 naming the part's url", async (_name, url, problem) => {
    const body = await refusedBothWays([
      user("Look"),
      { role: "assistant", parts: [{ type: "text", text: "ok" }] },
      { role: "user", parts: [{ type: "text", text: "this:" }, { type: "file", mediaType: "image/png", url }] }
    ])
    expect(body.details.error).toContain(`"messages[2].parts[1].url" ${problem}`)
    expect(body.details.error).not.toContain(url.slice(5))
  })

  it("names the url of a reasoning file and of a file in a steering message", async () => {
    const reasoning = await refusedBothWays([
      user("Hi"),
      { role: "assistant", parts: [{ type: "reasoning-file", mediaType: "image/png", url: "nope" }] },
      user("and?")
    ])
    expect(reasoning.details.error).toContain(`"messages[1].parts[0].url" must be`)
    const steering = await refusedBothWays([{
      role: "user",
      parts: [{ type: "steering-message", id: "s1", parts: [{ type: "file", mediaType: "image/png", url: "nope" }] }]
    }])
    expect(steering.details.error).toContain(`"messages[0].parts[0].parts[0].url" must be`)
  })

  it("a file the provider's API cannot carry is a 400, not the provider refusing (500)", async () => {
    const body = await refusedBothWays([{
      role: "user",
      parts: [{ type: "file", mediaType: "model/gltf-binary", url: "data:model/gltf-binary;base64,AAAA" }]
    }])
    expect(body.message).toMatch(/^Invalid history: "messages" cannot be sent to test: /)
    expect(body.details).toMatchObject({ error: expect.stringMatching(/^"messages" cannot be sent to test: /) })
  })

  it("nesting deeper than 64 levels is refused while parsing, and 64 levels are fine", async () => {
    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`
    // The body, its messages and a message: three levels before those of the metadata.
    const bodyWith = (depth: number) =>
      `{"model":"test/m1","stream":false,"messages":[{"role":"user","content":"hi","metadata":${nested(depth)}}]}`
    for (const stream of [true, false]) {
      const response = await postJson(
        `${gateway.url}/api/v1/chat`,
        bodyWith(62).replace(`"stream":false`, `"stream":${stream}`),
        bearer(secret)
      )
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({
        message: "Malformed JSON body: nested deeper than 64 levels of arrays and objects",
        details: { error: "nested deeper than 64 levels of arrays and objects" }
      })
    }
    const fine = await postJson(`${gateway.url}/api/v1/chat`, bodyWith(61), bearer(secret))
    expect(fine.status).toBe(200)
    await fine.text()
  })
})
