import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type ClientFetchSettings, fetchForClient, FetchRefused } from "../../../src/tools/outbound/fetchForClient.ts"
import { type Lookup, makeUrlPolicy } from "../../../src/tools/outbound/urlPolicy.ts"

const MiB = 1024 * 1024

let server: Server
let port: number
let endlessSent = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? ""
    if (url === "/doc.txt") return res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("hello")
    if (url === "/loop") return res.writeHead(302, { location: "/loop" }).end()
    if (url === "/to-loopback") return res.writeHead(307, { location: `http://127.0.0.1:${port}/doc.txt` }).end()
    if (url === "/silent") return
    if (url === "/declared-large") return res.writeHead(200, { "content-length": String(2 * MiB) }).end()
    if (url === "/endless") {
      res.writeHead(200, { "content-type": "application/octet-stream" })
      const chunk = Buffer.alloc(256 * 1024, 7)
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) endlessSent += chunk.byteLength
      }
      res.on("drain", pump)
      return pump()
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server.closeAllConnections()
  return new Promise<void>((resolve) => server.close(() => resolve()))
})

/** Names the tests resolve themselves: `files.test` to the test server, `inside.test` to loopback. */
const lookup: Lookup = async (hostname) => {
  if (hostname === "files.test") return [{ address: "127.0.0.2", family: 4 }]
  if (hostname === "inside.test") return [{ address: "203.0.113.9", family: 4 }, { address: "127.0.0.1", family: 4 }]
  throw new Error("ENOTFOUND")
}

const settings = (overrides: Partial<ClientFetchSettings> = {}): ClientFetchSettings => ({
  policy: makeUrlPolicy({ allowPrivate: false, allowedHosts: ["files.test", "127.0.0.2"], lookup }),
  maxBytes: 20 * MiB,
  timeoutMs: 5_000,
  ...overrides
})

const refusal = async (url: string, overrides: Partial<ClientFetchSettings> = {}) => {
  const error = await fetchForClient(settings(overrides), url).catch((e: unknown) => e)
  assert.instanceOf(error, FetchRefused)
  return (error as FetchRefused).reason
}

describe("fetchForClient (docs/DESIGN.md §3.20)", () => {
  it("fetches from an allowed host, connecting to the address the policy checked", async () => {
    // `files.test` exists only in the policy's lookup: the connection goes to the checked address.
    const fetched = await fetchForClient(settings(), `http://files.test:${port}/doc.txt`)
    assert.strictEqual(Buffer.from(fetched.data).toString(), "hello")
    assert.strictEqual(fetched.mediaType, "text/plain")
  })

  it("refuses loopback and private addresses, and names resolving to them", async () => {
    expect(await refusal(`http://127.0.0.1:${port}/doc.txt`)).toBe("127.0.0.1 is a loopback address")
    expect(await refusal("http://192.168.1.1/")).toBe("192.168.1.1 is a private address")
    expect(await refusal("http://[::1]/")).toBe("::1 is a loopback address")
    expect(await refusal(`http://inside.test:${port}/`)).toBe("host inside.test resolves to a loopback address")
    expect(await refusal("http://nowhere.test/")).toBe("cannot resolve host nowhere.test")
  })

  it("refuses what is not http(s)", async () => {
    expect(await refusal("file:///etc/passwd")).toBe("only http and https URLs are allowed, not file:")
  })

  it("checks every redirect and gives up on a loop", async () => {
    expect(await refusal(`http://files.test:${port}/to-loopback`)).toBe("127.0.0.1 is a loopback address")
    expect(await refusal(`http://files.test:${port}/loop`)).toBe("more than 5 redirects")
  })

  it("refuses an error status, a silent server and a declared size over the cap", async () => {
    expect(await refusal(`http://files.test:${port}/missing`)).toBe("the server answered HTTP 404")
    expect(await refusal(`http://files.test:${port}/silent`, { timeoutMs: 200 })).toBe(
      "no complete answer within 0.2 s"
    )
    expect(await refusal(`http://files.test:${port}/declared-large`, { maxBytes: MiB })).toBe(
      `larger than ${MiB} bytes`
    )
  })

  it("stops reading an endless body at the cap, holding no more than the cap in memory", async () => {
    const before = process.memoryUsage()
    const reason = await refusal(`http://files.test:${port}/endless`)
    const after = process.memoryUsage()
    expect(reason).toBe(`larger than ${20 * MiB} bytes`)
    // What the sockets' buffers held on top of the cap; never the whole (endless) body.
    expect(endlessSent).toBeLessThan(28 * MiB)
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * MiB)
  })
})
