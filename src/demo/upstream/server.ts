import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { demoReply } from "./demo.ts"
import { readBody } from "./readBody.ts"
import { writeJson, writeReply } from "./respond.ts"
import type { RecordedRequest, Reply, Upstream, UpstreamOptions } from "./types.ts"
import { errorBody } from "./wire.ts"

/**
 * A scripted OpenAI Chat Completions server on plain `node:http`: tests,
 * benchmarks and the demo talk to it instead of a real provider.
 */
export const startUpstream = async (options: UpstreamOptions = {}): Promise<Upstream> => {
  const requests: Array<RecordedRequest> = []
  const queue: Array<Reply> = []
  let responder: ((body: any) => Reply) | undefined
  const undeliveredAborts: Array<RecordedRequest> = []
  const abortWaiters: Array<() => void> = []
  let sequence = 0
  const nextToolCallId = () => `call_${++sequence}`
  const expectedAuthorization = options.apiKey === undefined ? undefined : `Bearer ${options.apiKey}`
  const models = options.models ?? ["demo"]
  // Connections cut by close() are not client aborts.
  let closing = false

  const takeAbort = (): RecordedRequest | undefined => undeliveredAborts.shift()

  const recordAbort = (request: RecordedRequest) => {
    request.aborted = true
    undeliveredAborts.push(request)
    for (const waiter of abortWaiters.splice(0)) waiter()
  }

  const chat = async (req: IncomingMessage, res: ServerResponse) => {
    let body: any
    try {
      body = JSON.parse(await readBody(req))
    } catch {
      return writeJson(res, 400, errorBody(400, "We could not parse the JSON body of your request."))
    }
    const recorded: RecordedRequest = { body, headers: { ...req.headers }, aborted: false }
    if (options.recordRequests !== false) requests.push(recorded)
    let brokenByUs = false
    res.once("close", () => {
      if (!res.writableFinished && !brokenByUs && !closing) recordAbort(recorded)
    })
    let reply: Reply
    try {
      reply = queue.shift() ?? (responder ?? demoReply)(body)
    } catch (error) {
      return writeJson(res, 500, errorBody(500, `respondWith failed: ${String(error)}`))
    }
    const meta = {
      id: `chatcmpl-${++sequence}`,
      created: Math.floor(Date.now() / 1000),
      model: String(body?.model ?? "demo")
    }
    await writeReply(reply, { res, body, meta, nextId: nextToolCallId, onBreak: () => (brokenByUs = true) })
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (expectedAuthorization !== undefined && req.headers.authorization !== expectedAuthorization) {
      req.resume()
      return writeJson(res, 401, errorBody(401))
    }
    const path = (req.url ?? "/").split("?")[0]
    if (req.method === "POST" && path === "/v1/chat/completions") return void chat(req, res).catch(() => res.destroy())
    req.resume()
    if (req.method === "GET" && path === "/v1/models") {
      const created = Math.floor(Date.now() / 1000)
      return writeJson(res, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", created, owned_by: "parley-upstream" }))
      })
    }
    writeJson(res, 404, errorBody(404, `Unknown route ${req.method} ${path}`))
  }

  const server = createServer(handle)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address

  return {
    url: `http://${host}:${address.port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    respondWith: (fn) => void (responder = fn),
    waitForAbort: (timeoutMs = 5_000) => {
      const ready = takeAbort()
      if (ready !== undefined) return Promise.resolve(ready)
      return new Promise((resolve, reject) => {
        const check = () => {
          const next = takeAbort()
          if (next === undefined) return void abortWaiters.push(check)
          clearTimeout(timer)
          resolve(next)
        }
        const timer = setTimeout(() => {
          const index = abortWaiters.indexOf(check)
          if (index >= 0) abortWaiters.splice(index, 1)
          reject(new Error(`no request was aborted within ${timeoutMs} ms`))
        }, timeoutMs)
        abortWaiters.push(check)
      })
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing = true
        server.close((error) => (error === undefined ? resolve() : reject(error)))
        server.closeAllConnections()
      })
  }
}
