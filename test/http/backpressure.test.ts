import { type IncomingMessage, request, ServerResponse } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { LongProgress } from "../../src/demo/upstream/types.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody } from "../support/http.ts"

const MiB = 1024 * 1024
// 64 MiB of answer: far more than the kernel's socket buffers between the upstream, the gateway and the client hold.
const DELTA = "~".repeat(16 * 1024)
const COUNT = 4096
// What the gateway may hold for one slow stream: its 1 MiB high-water mark plus one turn's reads from the upstream.
const BOUND = 4 * MiB

let gateway: TestGateway
let secret: string
let maxBuffered = 0
const write = ServerResponse.prototype.write

beforeAll(async () => {
  gateway = await startGateway()
  secret = (await gateway.createKey()).secret
  // The gateway runs in this process: watch how much its chat responses leave buffered for the client.
  ServerResponse.prototype.write = function(this: ServerResponse, ...args: Parameters<typeof write>) {
    const ok = write.apply(this, args)
    if (this.req.url === "/api/v1/chat") maxBuffered = Math.max(maxBuffered, this.writableLength)
    return ok
  } as typeof write
})
afterAll(async () => {
  ServerResponse.prototype.write = write
  await gateway.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts a streamed chat and hands back the response with nothing read from it (paused). */
const openStream = (): Promise<{ res: IncomingMessage; destroy: () => void }> =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify(chatBody({ stream: true }))
    const req = request(`${gateway.url}/api/v1/chat`, {
      method: "POST",
      agent: false,
      headers: { ...bearer(secret), "content-type": "application/json", "content-length": Buffer.byteLength(body) }
    })
    req.on("response", (res) => {
      res.pause()
      resolve({ res, destroy: () => req.destroy() })
    })
    req.on("error", reject)
    req.end(body)
  })

/** Reads `res` slowly: a little every few milliseconds, for `ms`. Returns what it read. */
const readSlowly = async (res: IncomingMessage, ms: number): Promise<Array<Buffer>> => {
  const chunks: Array<Buffer> = []
  for (const end = Date.now() + ms; Date.now() < end;) {
    await sleep(20)
    for (let taken = 0, chunk: Buffer | null; taken < 64 * 1024 && (chunk = res.read()) !== null;) {
      chunks.push(chunk)
      taken += chunk.length
    }
  }
  return chunks
}

const readAll = (res: IncomingMessage, chunks: Array<Buffer>): Promise<string> =>
  new Promise((resolve, reject) => {
    res.on("data", (chunk: Buffer) => chunks.push(chunk))
    res.on("end", () => resolve(Buffer.concat(chunks).toString()))
    res.on("error", reject)
    res.resume()
  })

describe("a client that reads slowly", () => {
  it(
    "makes the gateway stop reading the model's answer, holding a few MiB at most, and gets all of it once it speeds up",
    async () => {
      const progress: LongProgress = { written: 0, waiting: false }
      gateway.upstream.enqueue({ type: "long", delta: DELTA, count: COUNT, progress })
      maxBuffered = 0
      const { res } = await openStream()
      const early = await readSlowly(res, 1_500)

      // The upstream waits for the gateway to take its answer, far from done, and the gateway holds little.
      expect(progress.waiting).toBe(true)
      expect(progress.written).toBeLessThan(COUNT / 2)
      expect(maxBuffered).toBeGreaterThan(0)
      expect(maxBuffered).toBeLessThan(BOUND)

      const text = await readAll(res, early)
      expect(text.split("~").length - 1).toBe(COUNT * DELTA.length)
      expect(text).toContain(`"type":"finish"`)
      expect(text.endsWith("data: [DONE]\n\n")).toBe(true)
      expect(maxBuffered).toBeLessThan(BOUND)
    },
    30_000
  )

  it("that leaves while the gateway waits for it aborts the run and its model call", async () => {
    const progress: LongProgress = { written: 0, waiting: false }
    gateway.upstream.enqueue({ type: "long", delta: DELTA, count: COUNT, progress })
    const { destroy } = await openStream()
    await sleep(1_000)
    expect(progress.waiting).toBe(true)
    destroy()
    const aborted = await gateway.upstream.waitForAbort(5_000)
    expect(aborted.aborted).toBe(true)
    expect(progress.written).toBeLessThan(COUNT / 2)
  }, 30_000)
})
