import { createHmac } from "node:crypto"
import { type Answer, type FakeServer, type Received, startFakeServer } from "./server.ts"

export interface FeishuFake extends FakeServer {
  readonly webhookUrl: string
  failNext(...codes: Array<number>): void
}

export interface FeishuFakeOptions {
  readonly token: string
  /** When set, every request must carry a valid `timestamp` and `sign` (signature verification on). */
  readonly secret?: string
  /** When set, text must contain one of these (custom keywords on). */
  readonly keywords?: ReadonlyArray<string>
}

const messages: Record<number, string> = {
  9499: "Bad Request",
  11232: "frequency limited psm[lark.oapi.app_platform_runtime]appID[1234]",
  19001: "param invalid: incoming webhook access token invalid",
  19021: "sign match fail or timestamp is not within one hour from current time",
  19022: "Ip Not Allowed",
  19024: "Key Words Not Found"
}

const error = (code: number): Answer => ({ status: 200, body: { code, msg: messages[code] ?? "error", data: {} } })

/** The text of a text message or of a card's markdown elements; undefined when the body is malformed. */
const textOf = (body: any): string | undefined => {
  if (body?.msg_type === "text" && typeof body.content?.text === "string") return body.content.text
  const elements = body?.card?.body?.elements
  if (body?.msg_type === "interactive" && body.card.schema === "2.0" && Array.isArray(elements)) {
    const texts = elements.map((element: any) => (element?.tag === "markdown" ? element.content : undefined))
    return texts.every((text: unknown) => typeof text === "string") ? texts.join("\n") : undefined
  }
  return undefined
}

/**
 * Feishu's custom-bot webhook as documented: `POST /open-apis/bot/v2/hook/TOKEN`,
 * `{msg_type, content|card}`, with `{timestamp, sign}` when signed
 * (sign = Base64(HMAC-SHA256(key = timestamp + "\n" + secret, message = ""))),
 * answering `{code, msg, data}`.
 */
export const startFeishuFake = async (options: FeishuFakeOptions): Promise<FeishuFake> => {
  const scripted: Array<number> = []
  const handle = (request: Received): Answer => {
    const next = scripted.shift()
    if (next !== undefined) return error(next)
    if (request.method !== "POST" || request.url !== `/open-apis/bot/v2/hook/${options.token}`) return error(19001)
    if (request.headers["content-type"] !== "application/json") return error(9499)
    const body = request.json
    if (options.secret !== undefined) {
      const timestamp = body?.timestamp
      if (typeof timestamp !== "string" || !/^\d+$/.test(timestamp)) return error(19021)
      const expected = createHmac("sha256", `${timestamp}\n${options.secret}`).update("").digest("base64")
      const skew = Math.abs(Date.now() / 1000 - Number(timestamp))
      if (body.sign !== expected || skew > 3600) return error(19021)
    }
    const text = textOf(body)
    if (text === undefined) return error(9499)
    if (options.keywords !== undefined && !options.keywords.some((word) => text.includes(word))) return error(19024)
    return { status: 200, body: { StatusCode: 0, StatusMessage: "success", code: 0, data: {}, msg: "success" } }
  }
  const server = await startFakeServer(handle)
  return {
    ...server,
    webhookUrl: `${server.url}/open-apis/bot/v2/hook/${options.token}`,
    failNext: (...codes) => void scripted.push(...codes)
  }
}
