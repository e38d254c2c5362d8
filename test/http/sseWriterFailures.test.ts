import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import type { WriteStage } from "../../src/http/answerWrites.ts"
import type { StreamEncoding } from "../../src/http/EncodedStream.ts"
import { SseWriter } from "../../src/http/SseWriter.ts"

let server: Server | undefined
afterEach(() => server?.close())

// Each chunk's text is its id; `boom` is a chunk whose encoding throws.
const encoding = (overrides: Partial<StreamEncoding> = {}): StreamEncoding => ({
  headers: {},
  chunk: (event) => {
    const id = (event as { readonly id: string }).id
    if (id === "boom") throw new TypeError("cannot encode")
    return id
  },
  failure: () => "",
  end: () => "<end>",
  broken: () => "<cut>",
  ...overrides
})

/**
 * One stream written as `write` says, told write failures answered as a
 * route answers them: the writer's own ending, else a 500 of its own.
 */
const stream = async (
  headers: Record<string, string>,
  streamEncoding: StreamEncoding,
  write: (writer: SseWriter) => Promise<void>
) => {
  const told: Array<WriteStage> = []
  const thrown: Array<unknown> = []
  server = createServer((_req, res: ServerResponse) => {
    const writer: SseWriter = new SseWriter(res, headers, streamEncoding, (_error, stage) => {
      told.push(stage)
      writer.fail(undefined)
      if (!res.headersSent) res.writeHead(500).end("nothing was sent")
    })
    write(writer).then(() => writer.end(), (error) => thrown.push(error))
  })
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const response = await fetch(`http://127.0.0.1:${port}/`)
  return { status: response.status, text: await response.text(), told, thrown }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe("SseWriter: a write that throws is told, never thrown (docs/DESIGN.md §3.25)", () => {
  it("tells a head Node refuses (a header holding a bidi mark), once, and writes nothing more", async () => {
    const result = await stream({ "x-bad": "a\u202eb" }, encoding(), async (writer) => {
      writer.emit({ type: "text-start", id: "one" })
      await turn()
      writer.emit({ type: "text-start", id: "two" })
      await turn()
    })
    expect(result).toEqual({ status: 500, text: "nothing was sent", told: ["head"], thrown: [] })
  })

  it("tells a chunk that cannot be encoded and ends with the stream's cut ending", async () => {
    const result = await stream({}, encoding(), async (writer) => {
      writer.emit({ type: "text-start", id: "one" })
      await turn()
      writer.emit({ type: "text-start", id: "boom" })
      writer.emit({ type: "text-start", id: "two" })
      await turn()
    })
    expect(result).toEqual({ status: 200, text: "one<cut>", told: ["chunk"], thrown: [] })
  })

  it("tells an end that cannot be made and ends with the cut ending instead", async () => {
    const failingEnd = encoding({
      end: () => {
        throw new RangeError("Maximum call stack size exceeded")
      }
    })
    const result = await stream({}, failingEnd, async (writer) => {
      writer.emit({ type: "text-start", id: "one" })
      await turn()
    })
    expect(result).toEqual({ status: 200, text: "one<cut>", told: ["end"], thrown: [] })
  })

  it("cuts the connection when even the cut ending cannot be made", async () => {
    const nothingWorks = encoding({
      end: () => {
        throw new Error("no end")
      },
      broken: () => {
        throw new Error("no cut")
      }
    })
    await expect(stream({}, nothingWorks, async (writer) => {
      writer.emit({ type: "text-start", id: "one" })
      await turn()
    })).rejects.toThrow()
  })
})
