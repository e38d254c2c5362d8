import { type PlatformWire, retryAfterNote } from "./platform.ts"

// https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks
const LIMITS = { text: 40_000, markdown: 12_000 } as const

const errors: Record<string, string> = {
  invalid_payload: "the payload is malformed",
  no_text: "the message is empty",
  invalid_blocks: "the markdown block was refused",
  channel_not_found: "the webhook's channel no longer exists",
  channel_is_archived: "the webhook's channel is archived",
  action_prohibited: "an admin restricts posting to this channel",
  posting_to_general_channel_denied: "only admins may post to this channel",
  no_service: "the webhook URL is invalid or was disabled",
  no_service_id: "the webhook URL is invalid",
  no_team: "the webhook URL's workspace does not exist",
  team_disabled: "the webhook's workspace is disabled",
  invalid_token: "the webhook URL's token is invalid"
}

/** Slack incoming webhook: `{text}` (plus a `markdown` block for markdown); answers `ok` or an error code with an HTTP status. */
export const slack: PlatformWire = {
  label: "Slack",
  tooLong: ({ format, text }) =>
    text.length > LIMITS[format]
      ? `Slack takes at most ${LIMITS[format]} characters of ${format}; this is ${text.length}.`
      : undefined,
  payload: ({ format, text }) => (format === "markdown" ? { text, blocks: [{ type: "markdown", text }] } : { text }),
  refusal: (answer) => {
    if (answer.status >= 200 && answer.status < 300) return undefined
    if (answer.status === 429) return `Slack refused the message: rate limited (HTTP 429).${retryAfterNote(answer)}`
    const code = answer.body.trim()
    const known = /^[a-z_]{1,64}$/.test(code) ? code : undefined
    const meaning = known === undefined ? undefined : errors[known]
    return `Slack refused the message: ${meaning === undefined ? "" : `${meaning} `}(HTTP ${answer.status}${
      known === undefined ? "" : ` ${known}`
    }).`
  }
}
