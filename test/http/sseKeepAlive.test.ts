import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import type { StreamEncoding } from "../../src/http/EncodedStream.ts"
import { SseWriter } from "../../src/http/SseWriter.ts"

// A write that throws fails the test: nothing here should.
const unexpected = (error: unknown) => {
  throw error
}

const encoding = (everyMs: number): StreamEncoding => ({
  headers: {},
  chunk: (event) => `data: ${event.type}\n\n`,
  failure: () => "",
  end: () => "data: end\n\n",
  broken: () => "",
  keepAlive: { everyMs, text: "data: ping\n\n" }
})

const FINISH = {
  type: "finish",
  finishReason: "stop",
  summary: { finished: true, finishReason: "stop", usage: {} }
} as const

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let server: Server | undefined
afterEach(() => server?.close())

// A real server and client: the writer's timer runs against Node's own response.
const streamed = async (everyMs: number, write: (writer: SseWriter) => Promise<void>) => {
  server = createServer((_req, res: ServerResponse) => {
    const writer = new SseWriter(res, {}, encoding(everyMs), unexpected)
    void write(writer).then(() => writer.end())
  })
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const text = await (await fetch(`http://127.0.0.1:${port}/`)).text()
  return text.split("\n\n").filter((event) => event !== "").map((event) => event.slice("data: ".length))
}

describe("SseWriter's keep-alive (Anthropic's ping, docs/DESIGN.md §14)", () => {
  it("sends the keep-alive event while the stream is quiet, once it began", async () => {
    const events = await streamed(40, async (writer) => {
      await sleep(60)
      writer.emit({ type: "start", messageId: "m" })
      await sleep(150)
      writer.emit(FINISH)
    })
    expect(events[0]).toBe("start")
    expect(events.filter((event) => event === "ping").length).toBeGreaterThanOrEqual(2)
    expect(events.slice(-2)).toEqual(["finish", "end"])
  })

  it("sends none while other events flow", async () => {
    // A ping comes only after a whole quiet interval: a long one, so that a loaded machine's pauses do not count.
    const events = await streamed(500, async (writer) => {
      for (let i = 0; i < 10; i++) {
        writer.emit({ type: "start-step" })
        await sleep(15)
      }
    })
    expect(events).not.toContain("ping")
  })
})
