import { Agent, createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { readBody } from "../src/demo/upstream/readBody.ts"
import { directBody } from "./scenarios.ts"

/**
 * Child process: the least a gateway can do on the wire for a non-streamed
 * chat, with nothing of parley: read the JSON body, POST the streamed
 * request to the upstream over a kept-alive agent, read its SSE answer, join
 * the text deltas and answer one JSON body. What it adds to a direct call is
 * the cost of one proxy hop on this machine (`bench/proxyFloor.ts`).
 */
const upstream = new URL(`${process.env.BENCH_UPSTREAM_URL}/chat/completions`)
const agent = new Agent({ keepAlive: true })
const upstreamBody = directBody.text(true)

const answer = (sse: string) => {
  let text = ""
  for (const line of sse.split("\n")) {
    if (line.startsWith("data: {")) text += JSON.parse(line.slice("data: ".length)).choices?.[0]?.delta?.content ?? ""
  }
  return JSON.stringify({ text })
}

const server = createServer(async (req, res) => {
  JSON.parse(await readBody(req))
  const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(upstreamBody) }
  request(upstream, { method: "POST", agent, headers }, async (response) => {
    const body = answer(await readBody(response))
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
    res.end(body)
  }).end(upstreamBody)
})
server.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
})
process.on("message", (message: { type?: string }) => {
  if (message.type === "exit") server.close(() => process.exit(0))
})
process.on("disconnect", () => process.exit(0))
