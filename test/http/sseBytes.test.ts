import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import type { StreamEncoding } from "../../src/http/EncodedStream.ts"
import { SseWriter } from "../../src/http/SseWriter.ts"

// A write that throws fails the test: nothing here should.
const unexpected = (error: unknown) => {
  throw error
}

let server: Server | undefined
afterEach(() => server?.close())

// Each chunk's text is its id: what the writer is given is what the client must read, byte for byte.
const encoding: StreamEncoding = {
  headers: {},
  chunk: (event) => (event as { readonly id: string }).id,
  failure: () => "",
  end: () => "",
  broken: () => ""
}

/** The texts written one turn of the event loop each, as a client reads them. */
const written = async (texts: ReadonlyArray<string>) => {
  server = createServer((_req, res) => {
    const writer = new SseWriter(res, {}, encoding, unexpected)
    void (async () => {
      for (const id of texts) {
        writer.emit({ type: "text-start", id })
        await new Promise((resolve) => setImmediate(resolve))
      }
      writer.end()
    })()
  })
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return (await fetch(`http://127.0.0.1:${port}/`)).text()
}

describe("SseWriter's bytes (each turn encoded into a kept buffer, then copied out)", () => {
  it("writes every turn as given, whatever its size and characters, a later turn leaving an earlier one whole", async () => {
    const texts = [
      "data: plain\n\n",
      "é".repeat(1_365),
      "a".repeat(1_366),
      "😀 ".repeat(3_000),
      // The most a turn written as bytes may hold, all of three bytes each; then one unit more, written as a string.
      "€".repeat(16 * 1024),
      "€".repeat(16 * 1024 + 1),
      "x".repeat(5_000)
    ]
    expect(await written(texts)).toBe(texts.join(""))
  })
})
