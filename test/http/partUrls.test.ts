import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

// URLs in message parts are fetched through the outbound policy, against a cap (docs/DESIGN.md §3.20).

/** A 1×1 PNG: what the model must receive inline once the gateway fetched it. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64"
)
const CAP = 1024 * 1024

let files: Server
/** The file server on 127.0.0.1 (loopback) and on 127.0.0.2 (the host the positive cases allow). */
let loopback: string
let allowed: string
const hits: Array<string> = []
let endlessSent = 0
let endlessClosed: Promise<void>

const startFiles = async () => {
  let closed: () => void = () => undefined
  endlessClosed = new Promise((resolve) => (closed = resolve))
  files = createServer((req, res) => {
    hits.push(req.url ?? "")
    if (req.url === "/pixel.png") return res.writeHead(200, { "content-type": "image/png" }).end(PNG)
    if (req.url === "/to-loopback") return res.writeHead(302, { location: `${loopback}/pixel.png` }).end()
    if (req.url === "/endless.png") {
      res.writeHead(200, { "content-type": "image/png" })
      const chunk = Buffer.alloc(64 * 1024, 1)
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) endlessSent += chunk.byteLength
      }
      res.on("drain", pump)
      res.once("close", closed)
      return pump()
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => files.listen(0, "127.0.0.2", resolve))
  const port = (files.address() as AddressInfo).port
  allowed = `http://127.0.0.2:${port}`
  loopback = `http://127.0.0.1:${port}`
}

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  await startFiles()
  gateway = await startGateway({ config: { outboundAllowedHosts: ["127.0.0.2"], fetchMaxBytes: CAP } }) // A key with no tools: the fetch is the gateway's own, not a tool's.
  ;({ secret } = await gateway.createKey({ tools: [] }))
})
afterAll(async () => {
  await gateway.close()
  files.closeAllConnections()
  await new Promise<void>((resolve) => files.close(() => resolve()))
})

const withFile = (url: string) =>
  chatBody({
    messages: [
      { role: "user", parts: [{ type: "text", text: "earlier" }] },
      { role: "user", parts: [{ type: "text", text: "What is in it?" }, { type: "file", mediaType: "image/png", url }] }
    ]
  })

const refused = async (url: string) => {
  const before = gateway.upstream.requests.length
  const response = await postJson(`${gateway.url}/api/v1/chat`, withFile(url), bearer(secret))
  const body = await response.json()
  expect(response.status).toBe(400)
  expect(body.error).toBe("BadRequest")
  expect(body.details.error).toMatch(/^"messages\[1\]\.parts\[1\]" names a URL that cannot be fetched: /)
  expect(gateway.upstream.requests.length).toBe(before)
  return body.details.error as string
}

describe("URLs in message parts", () => {
  it("refuses a loopback address without connecting to it", async () => {
    hits.length = 0
    expect(await refused(`${loopback}/pixel.png`)).toContain("127.0.0.1 is a loopback address")
    expect(hits).toEqual([])
  })

  it("refuses a private address", async () => {
    expect(await refused("http://10.1.2.3/pixel.png")).toContain("10.1.2.3 is a private address")
  })

  it("refuses a name that resolves to a loopback address", async () => {
    expect(await refused(`http://localhost:${new URL(loopback).port}/pixel.png`)).toContain(
      "host localhost resolves to a loopback address"
    )
  })

  it("checks every redirect: an allowed host sending the fetch to loopback is refused", async () => {
    hits.length = 0
    expect(await refused(`${allowed}/to-loopback`)).toContain("127.0.0.1 is a loopback address")
    expect(hits).toEqual(["/to-loopback"])
  })

  it("stops reading an endless body at the cap", async () => {
    const error = await refused(`${allowed}/endless.png`)
    expect(error).toContain(`larger than ${CAP} bytes`)
    await endlessClosed
    // The cap, plus what the sockets' buffers held: never the whole body.
    expect(endlessSent).toBeLessThan(CAP + 8 * 1024 * 1024)
  })

  it("sends what an allowed host serves to the model", async () => {
    const response = await postJson(`${gateway.url}/api/v1/chat`, withFile(`${allowed}/pixel.png`), bearer(secret))
    expect(response.status).toBe(200)
    const sent = JSON.stringify(gateway.upstream.requests.at(-1)?.body.messages)
    expect(sent).toContain(PNG.toString("base64"))
    expect(sent).not.toContain(allowed)
  })
})
