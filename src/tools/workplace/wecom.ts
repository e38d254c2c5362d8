import { jsonBody } from "../messaging/postJson.ts"
import { type PlatformWire, utf8Bytes } from "./platform.ts"

// https://developer.work.weixin.qq.com/document/path/91770 (group robot); content limits in UTF-8 bytes.
const LIMITS = { text: 2048, markdown: 4096 } as const

const errors: Record<number, string> = {
  93000: "the webhook URL or its key is invalid (errcode 93000)",
  45009: "the robot's rate limit was reached (errcode 45009: at most 20 messages a minute). Try again in a minute.",
  45002: "the message is too long (errcode 45002)",
  44004: "the message is empty (errcode 44004)",
  40008: "the message type is invalid (errcode 40008)"
}

// errmsg goes on with a hint id and this server's address ("…, hint: […], from ip: …"): keep the first clause.
const firstClause = (text: unknown) => (typeof text === "string" ? text.split(",")[0]?.trim() ?? "" : "")

/** WeCom (企业微信) group robot: `{msgtype, text|markdown: {content}}`, answers `{errcode, errmsg}`. */
export const wecom: PlatformWire = {
  label: "WeCom",
  tooLong: ({ format, text }) => {
    const bytes = utf8Bytes(text)
    return bytes > LIMITS[format]
      ? `WeCom takes at most ${LIMITS[format]} bytes of ${format}; this is ${bytes}.`
      : undefined
  },
  payload: ({ format, text }) =>
    format === "markdown"
      ? { msgtype: "markdown", markdown: { content: text } }
      : { msgtype: "text", text: { content: text } },
  refusal: (answer) => {
    const body = jsonBody(answer) as { errcode?: unknown; errmsg?: unknown } | undefined
    const code = body?.errcode
    if (typeof code !== "number") return `WeCom answered HTTP ${answer.status} without a result code.`
    if (code === 0 && answer.status < 300) return undefined
    const known = errors[code]
    return `WeCom refused the message: ${known ?? `errcode ${code} (${firstClause(body?.errmsg)})`}`
  }
}
