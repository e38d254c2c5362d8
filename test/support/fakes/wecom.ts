import { type Answer, type FakeServer, type Received, startFakeServer } from "./server.ts"

export interface WecomFake extends FakeServer {
  /** The webhook URL of the robot, key included. */
  readonly webhookUrl: string
  /** Answers the next requests with these errcodes (FIFO) before checking anything. */
  failNext(...errors: Array<number | { readonly errcode: number; readonly errmsg: string }>): void
}

const errmsg: Record<number, string> = {
  93000:
    "invalid webhook url, hint: [1700000000000000000], from ip: 203.0.113.7, more info at https://open.work.weixin.qq.com/devtool/query?e=93000",
  45009: "api freq out of limit, hint: [1700000000000000001], from ip: 203.0.113.7",
  45002: "content size out of limit",
  44004: "empty content",
  40008: "invalid message type"
}

const error = (errcode: number): Answer => ({
  status: 200,
  body: { errcode, errmsg: errmsg[errcode] ?? "unknown error" }
})

const LIMITS: Record<string, number> = { text: 2048, markdown: 4096 }

/**
 * WeCom's group-robot webhook as documented: `POST /cgi-bin/webhook/send?key=KEY`
 * with JSON `{msgtype: "text"|"markdown", <msgtype>: {content}}`; always HTTP 200
 * with `{errcode, errmsg}`.
 */
export const startWecomFake = async (key: string): Promise<WecomFake> => {
  const scripted: Array<number | { readonly errcode: number; readonly errmsg: string }> = []
  const handle = (request: Received): Answer => {
    const next = scripted.shift()
    if (typeof next === "number") return error(next)
    if (next !== undefined) return { status: 200, body: next }
    const url = new URL(request.url, "http://fake")
    if (request.method !== "POST" || url.pathname !== "/cgi-bin/webhook/send" || url.searchParams.get("key") !== key) {
      return error(93000)
    }
    if (request.headers["content-type"] !== "application/json") return error(40008)
    const body = request.json
    const type = body?.msgtype
    if ((type !== "text" && type !== "markdown") || Object.keys(body).length !== 2) return error(40008)
    const content = body[type]?.content
    if (typeof content !== "string" || Object.keys(body[type]).length !== 1) return error(40008)
    if (content === "") return error(44004)
    if (Buffer.byteLength(content) > (LIMITS[type] ?? 0)) return error(45002)
    return { status: 200, body: { errcode: 0, errmsg: "ok" } }
  }
  const server = await startFakeServer(handle)
  return {
    ...server,
    webhookUrl: `${server.url}/cgi-bin/webhook/send?key=${key}`,
    failNext: (...errors) => void scripted.push(...errors)
  }
}
