import { Redacted } from "effect"
import { createHmac } from "node:crypto"
import { jsonBody } from "../messaging/postJson.ts"
import { type PlatformWire, type Signing, utf8Bytes, type WorkplaceMessage } from "./platform.ts"

// https://open.feishu.cn/document/client-docs/bot-v3/add-custom-bot: request bodies up to 20 KB.
const MAX_BODY_BYTES = 20 * 1024

const errors: Record<number, string> = {
  9499: "the request is malformed (code 9499)",
  11232: "the bot's rate limit was reached (code 11232: at most 100 messages a minute, 5 a second). Try again shortly.",
  19001: "the webhook URL is invalid (code 19001)",
  19007: "the bot is not enabled in this group (code 19007)",
  19021:
    "the signature check failed (code 19021): check toolContext.workplace_message.secret, and that the server clock is right",
  19022: "this server's IP address is not on the bot's allow-list (code 19022)",
  19024: "the message lacks every keyword the bot requires (code 19024)"
}

/**
 * Feishu's signature: HMAC-SHA256 keyed with `timestamp + "\n" + secret` over
 * an empty message, Base64. The timestamp (seconds) must be within an hour of
 * Feishu's clock.
 */
export const feishuSign = (secret: string, timestamp: string): string =>
  createHmac("sha256", `${timestamp}\n${secret}`).update("").digest("base64")

const content = ({ format, text }: WorkplaceMessage) =>
  format === "markdown"
    ? { msg_type: "interactive", card: { schema: "2.0", body: { elements: [{ tag: "markdown", content: text }] } } }
    : { msg_type: "text", content: { text } }

const signature = ({ now, secret }: Signing) => {
  if (secret === undefined) return {}
  const timestamp = String(Math.floor(now.getTime() / 1000))
  return { timestamp, sign: feishuSign(Redacted.value(secret), timestamp) }
}

/** Feishu/Lark custom bot: `{msg_type, content|card}` plus `{timestamp, sign}` when signed; answers `{code, msg}`. */
export const feishu: PlatformWire = {
  label: "Feishu",
  tooLong: (message) => {
    const bytes = utf8Bytes(JSON.stringify(content(message)))
    return bytes > MAX_BODY_BYTES
      ? `Feishu takes request bodies of at most ${MAX_BODY_BYTES} bytes; this is ${bytes}.`
      : undefined
  },
  payload: (message, signing) => ({ ...signature(signing), ...content(message) }),
  refusal: (answer) => {
    const body = jsonBody(answer) as { code?: unknown; StatusCode?: unknown; msg?: unknown } | undefined
    // Older bots answer {StatusCode, StatusMessage} only.
    const code = typeof body?.code === "number" ? body.code : body?.StatusCode
    if (typeof code !== "number") return `Feishu answered HTTP ${answer.status} without a result code.`
    if (code === 0 && answer.status < 300) return undefined
    const known = errors[code]
    return `Feishu refused the message: ${known ?? `code ${code} (${typeof body?.msg === "string" ? body.msg : ""})`}`
  }
}
