import { Schema } from "effect"

const Text = Schema.String.check(Schema.isMinLength(1))

const isHttpUrl = (text: string) => URL.canParse(text) && ["https:", "http:"].includes(new URL(text).protocol)

// Issues never quote the value, so a malformed token is not echoed in a 400 body either.
const PartnerToken = Text.annotate({
  description: "Access token of the partner messaging API. A secret: it is never logged or shown."
})
const MessengerId = Text.annotate({ description: "The partner account messages are sent as." })
const PartnerApiUrl = Schema.String.check(Schema.makeFilter(isHttpUrl, { expected: "an http(s) URL" })).annotate({
  description: "Base URL of the partner messaging API; default: the server's PARLEY_PARTNER_API_URL."
})

/** The context chat_message reads, with the token wrapped once decoded. */
export const partnerContext = {
  partnerToken: Schema.RedactedFromValue(PartnerToken),
  defaultMessengerId: MessengerId,
  partnerApiUrl: Schema.optionalKey(PartnerApiUrl)
}
