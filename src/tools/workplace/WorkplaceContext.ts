import { Schema } from "effect"

const platforms = ["wecom", "feishu", "lark", "slack"] as const

const isHttpUrl = (text: string) => {
  if (!URL.canParse(text)) return false
  const { protocol } = new URL(text)
  return protocol === "https:" || protocol === "http:"
}

// Issues never quote the value: a malformed webhook URL still holds its key.
const Platform = Schema.Literals(platforms).annotate({
  description:
    "Workplace chat of the group: wecom (WeCom group robot), feishu or lark (custom bot), slack (incoming webhook)."
})
const WebhookUrl = Schema.String.check(Schema.makeFilter(isHttpUrl, { expected: "an http(s) URL" })).annotate({
  description: "The group's incoming-webhook URL. A secret: it is never logged or shown."
})
const SigningSecret = Schema.String.check(Schema.isMinLength(1)).annotate({
  description:
    "Signing secret of a Feishu/Lark bot with signature verification on. A secret: it is never logged or shown."
})

/** `toolContext.workplace_message` (or the same fields of `context`), with the secrets wrapped once decoded. */
export const workplaceContext = {
  platform: Platform,
  webhookUrl: Schema.RedactedFromValue(WebhookUrl),
  secret: Schema.optionalKey(Schema.RedactedFromValue(SigningSecret))
}
