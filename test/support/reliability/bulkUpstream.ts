import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { drained } from "../../../src/demo/upstream/respond.ts"
import { sse } from "../../../src/demo/upstream/wire.ts"

/**
 * An OpenAI-wire provider that streams one long answer of `totalBytes` text in
 * 16 KiB deltas, generated as it goes and written only as fast as the reader
 * takes it (it waits for `drain`). `written` tells how far a reader let it get:
 * a gateway that stops reading when its client stops reading holds it back.
 */
export interface BulkUpstream {
  readonly url: string
  /** Bytes of SSE written to the gateway so far, over all requests. */
  readonly written: () => number
  readonly close: () => Promise<void>
}

const DELTA = "x".repeat(16 * 1024)

const frame = (delta: object, finish: string | null = null) =>
  sse({
    id: "bulk",
    object: "chat.completion.chunk",
    created: 0,
    model: "bulk",
    choices: [{ index: 0, delta, finish_reason: finish }]
  })

export const startBulkUpstream = async (totalBytes: number): Promise<BulkUpstream> => {
  let written = 0
  const write = (res: ServerResponse, data: string): Promise<void> => {
    written += data.length
    return res.write(data) ? Promise.resolve() : drained(res)
  }
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" })
      await write(res, frame({ role: "assistant", content: "" }))
      for (let sent = 0; sent < totalBytes && !res.destroyed; sent += DELTA.length) {
        await write(res, frame({ content: DELTA }))
      }
      if (res.destroyed) return
      await write(res, frame({}, "stop"))
      res.end("data: [DONE]\n\n")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    written: () => written,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
