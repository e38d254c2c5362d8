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

const expect401 = async (response: Response, message: string) => {
  expect(response.status).toBe(401)
  expect(response.headers.get("x-correlation-id")).toBeNull()
  expect(await response.json()).toEqual({ error: "Unauthorized", message, statusCode: 401 })
}

const expectNoEndpoint = async (response: Response, method: string, path: string) => {
  expect(response.status).toBe(404)
  const body = await response.json()
  expect(body).toMatchObject({ error: "NotFound", message: `No endpoint ${method} ${path}. See /docs for the API.` })
  expect(body.correlationId).toBe(response.headers.get("x-correlation-id"))
}

/** Sends headers with `Expect: 100-continue` and reports whether the server asked for the body before answering. */
const askToContinue = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
    let continued = false
    const body = JSON.stringify(chatBody())
    const req = request(url, {
      method: "POST",
      headers: {
        ...headers,
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
      res.resume().on("end", () => resolve({ status: res.statusCode ?? 0, continued }))
      if (!continued) req.destroy()
    })
    req.on("error", (error) => continued ? reject(error) : undefined)
  })

describe("the gateway's server", () => {
  it("sends POST /api/v1/chat, with or without a query, to the chat route (the router has no chat endpoint)", async () => {
    for (const path of ["/api/v1/chat", "/api/v1/chat?trace=1"]) {
      gateway.upstream.enqueue({ type: "text", text: "routed past the router" })
      const response = await postJson(`${gateway.url}${path}`, chatBody(), bearer(secret))
      expect(response.status).toBe(200)
      expect(JSON.stringify(await response.json())).toContain("routed past the router")
    }
  })

  it("sends every other method and path to the router", async () => {
    // The router's answer: the chat path exists, for POST only (docs/DESIGN.md §3.22).
    const get = await fetch(`${gateway.url}/api/v1/chat`, { headers: bearer(secret) })
    expect(get.status).toBe(405)
    expect(get.headers.get("allow")).toBe("POST")
    await expectNoEndpoint(
      await postJson(`${gateway.url}/api/v1/chat/more`, chatBody(), bearer(secret)),
      "POST",
      "/api/v1/chat/more"
    )
    await expectNoEndpoint(
      await postJson(`${gateway.url}/api/v1/chats`, chatBody(), bearer(secret)),
      "POST",
      "/api/v1/chats"
    )
    expect((await fetch(`${gateway.url}/api/v1/models`, { headers: bearer(secret) })).status).toBe(200)
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200)
  })

  it("checks the key before routing, both ways", async () => {
    await expect401(
      await postJson(`${gateway.url}/api/v1/chat`, "{not json", bearer("pk_nope")),
      "Invalid or expired API key"
    )
    await expect401(await fetch(`${gateway.url}/api/v1/chat`), "Missing authorization header")
    await expect401(
      await fetch(`${gateway.url}/api/v1/nope`, { headers: bearer("pk_nope") }),
      "Invalid or expired API key"
    )
    // The router decodes %-escapes and ignores case: such a path still needs a key.
    await expect401(await fetch(`${gateway.url}/%61pi/v1/models`), "Missing authorization header")
    await expect401(await fetch(`${gateway.url}/API/v1/models`), "Missing authorization header")
  })

  it("asks for a chat body only once the key is good; a routed request is told to go on at once", async () => {
    expect(await askToContinue(`${gateway.url}/api/v1/chat`, bearer("pk_nope"))).toEqual({
      status: 401,
      continued: false
    })
    expect(await askToContinue(`${gateway.url}/api/v1/nope`, bearer(secret))).toEqual({ status: 404, continued: true })
  })

  it("declares POST /api/v1/chat in /openapi.json although the router does not serve it", async () => {
    const document = await (await fetch(`${gateway.url}/openapi.json`)).json()
    expect(Object.keys(document.paths["/api/v1/chat"])).toEqual(["post"])
    expect(document.paths["/api/v1/models"]).toBeDefined()
  })
})
