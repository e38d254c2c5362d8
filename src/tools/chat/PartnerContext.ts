import { Schema } from "effect"

const Text = Schema.String.check(Schema.isMinLength(1))

const isHttpUrl = (text: string) => URL.canParse(text) && ["https:", "http:"].includes(new URL(text).protocol)

// Issues never quote the value, so a malformed token is not echoed in a 400 body either.
const PartnerToken = Text.annotate({
  description: "Access token of the partner messaging API. A secret: it is never logged or shown."
})
const MessengerId = Text.annotate({ description: "The partner account messages are sent as." })
const PartnerApiUrl = Schema.String.check(Schema.makeFilter(isHttpUrl, { expected: "an http(s) URL" }))

const fields = {
  partnerToken: Schema.RedactedFromValue(PartnerToken),
  defaultMessengerId: MessengerId,
  partnerApiUrl: Schema.optionalKey(PartnerApiUrl.annotate({
    description: "Base URL of the partner messaging API; default: the server's PARLEY_PARTNER_API_URL."
  }))
}

/**
 * The context chat_message reads, with the token wrapped once decoded. With
 * no PARLEY_PARTNER_API_URL on the server, `partnerApiUrl` is required: the
 * tool cannot run without one, so validateOnly, contextStrategy and GET /tools
 * say so before a run (docs/DESIGN.md §3.16).
 */
export const partnerContext = (serverUrl: string | undefined): typeof fields =>
  serverUrl !== undefined ? fields : {
    ...fields,
    // Typed as optional: `execute` still falls back to the server's URL, which is absent here.
    partnerApiUrl: PartnerApiUrl.annotate({
      description: "Base URL of the partner messaging API. Required: the server has no PARLEY_PARTNER_API_URL."
    }) as unknown as typeof fields.partnerApiUrl
  }
