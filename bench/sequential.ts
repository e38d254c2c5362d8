import http from "node:http"
import type { Door } from "./phases.ts"

/**
 * Requests one at a time over one kept-alive socket (concurrency 1, no load
 * generator's own work in the way): for the measurements that count what a
 * request costs the gateway by blocks of requests (`bench/instructions.ts`,
 * `bench/cpuBlocks.ts`). Each must answer 200.
 */
export const sequential = () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const send = (door: Door, body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(new URL(door.url), {
        method: "POST",
        agent,
        headers: { ...door.headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
      }, (res) => {
        res.resume()
        res.once("end", () => res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)))
      })
      req.once("error", reject)
      req.end(body)
    })
  return {
    sendMany: async (door: Door, body: string, count: number) => {
      for (let i = 0; i < count; i++) await send(door, body)
    },
    close: () => agent.destroy()
  }
}
