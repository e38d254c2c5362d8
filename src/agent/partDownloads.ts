import type { ModelMessage } from "ai"
import type { DownloadFunction } from "ai/internal"
import { Schema } from "effect"
import { type ClientFetch, FetchRefused } from "../tools/outbound/fetchForClient.ts"

/**
 * A message part names a URL the gateway will not or cannot fetch for the
 * model: refused by the outbound policy, too large, too slow or unreachable.
 * The client's mistake, named at its 0-based `path` (docs/DESIGN.md §3.18,
 * §3.20): the model messages' until a protocol names its body's place,
 * which it may find by `url`.
 */
export class UnfetchablePart extends Schema.TaggedError<UnfetchablePart>()("UnfetchablePart", {
  path: Schema.String,
  reason: Schema.String,
  url: Schema.String
}) {
  override get message() {
    return `"${this.path}" names a URL that cannot be fetched: ${this.reason}`
  }
}

/** Whether a URL as the model messages hold it (a string, a URL, `{type: "url", url}`) is `href`. */
export const isUrl = (value: unknown, href: string): boolean =>
  value instanceof URL
    ? value.href === href
    : typeof value === "string"
    ? URL.canParse(value) && new URL(value).href === href
    : typeof value === "object" && value !== null && "url" in value && isUrl(value.url, href)

/** The first part naming `href`: a file or image part's URL, else anywhere in a part (a tool output). */
const pathOf = (messages: ReadonlyArray<ModelMessage>, href: string): string => {
  for (const [i, message] of messages.entries()) {
    if (typeof message.content === "string") continue
    for (const [j, part] of message.content.entries()) {
      const names = part.type === "file"
        ? isUrl(part.data, href)
        : part.type === "image"
        ? isUrl(part.image, href)
        : JSON.stringify(part).includes(href)
      if (names) return `messages[${i}].content[${j}]`
    }
  }
  return "messages"
}

/**
 * The AI SDK's download step for a conversation: URLs the model takes
 * itself go to it as they are; every other one is fetched through the
 * outbound policy, one at a time (at most one body in memory beyond those
 * kept). A refusal fails it with UnfetchablePart naming the part.
 */
export const partDownloads =
  (fetch: ClientFetch, messages: ReadonlyArray<ModelMessage>): DownloadFunction => async (planned) => {
    const fetched: Array<{ data: Uint8Array; mediaType: string | undefined } | null> = []
    for (const { abortSignal, isUrlSupportedByModel, url } of planned) {
      if (isUrlSupportedByModel) {
        fetched.push(null)
        continue
      }
      try {
        fetched.push(await fetch(url.href, abortSignal))
      } catch (error) {
        if (!(error instanceof FetchRefused)) throw error
        throw new UnfetchablePart({ path: pathOf(messages, url.href), reason: error.reason, url: url.href })
      }
    }
    return fetched
  }
