import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway()
  secret = (await gateway.createKey()).secret
})
afterAll(() => gateway.close())

describe("POST /chat", () => {
  it("answers JSON with the correlation id the client sent", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Hi there" })
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), {
      ...bearer(secret),
      "x-correlation-id": "req-42"
    })
    const body = await response.json()
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(response.headers.get("x-correlation-id")).toBe("req-42")
    expect(body.data.messages.at(-1).parts).toContainEqual({ type: "text", text: "Hi there", state: "done" })
  })

  it("streams to [DONE]", async () => {
    gateway.upstream.enqueue({ type: "text", text: "one two three" })
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody({ stream: true }), bearer(secret))
    const text = await response.text()
    expect(response.headers.get("content-type")).toBe("text/event-stream")
    expect(text).toContain(`"delta":"three"`)
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true)
  })

  it("refuses a bad key with the spec's 401 and no correlation id", async () => {
    const response = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer("pk_nope"))
    expect(response.status).toBe(401)
    expect(response.headers.get("x-correlation-id")).toBeNull()
    expect(await response.json()).toEqual({
      error: "Unauthorized",
      message: "Invalid or expired API key",
      statusCode: 401
    })
  })

  it("answers with a query string on the path", async () => {
    gateway.upstream.enqueue({ type: "text", text: "queried" })
    const response = await postJson(`${gateway.url}/api/v1/chat?trace=1`, chatBody(), bearer(secret))
    expect(response.status).toBe(200)
    expect(JSON.stringify(await response.json())).toContain("queried")
  })

  it("tells a client that sent Expect: 100-continue to go on, then answers", async () => {
    gateway.upstream.enqueue({ type: "text", text: "continued" })
    const body = JSON.stringify(chatBody())
    const { status, text, continued } = await new Promise<{ status: number; text: string; continued: boolean }>(
      (resolve, reject) => {
        let continued = false
        const req = request(`${gateway.url}/api/v1/chat`, {
          method: "POST",
          headers: {
            ...bearer(secret),
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            expect: "100-continue"
          }
        })
        req.on("continue", () => {
          continued = true
          req.end(body)
        })
        req.on("response", (res) => {
          let text = ""
          res.setEncoding("utf8").on("data", (chunk: string) => text += chunk)
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text, continued }))
        })
        req.on("error", reject)
      }
    )
    expect(continued).toBe(true)
    expect(status).toBe(200)
    expect(text).toContain("continued")
  })
})
