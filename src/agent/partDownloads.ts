import type { UIMessage } from "ai"
import type { DownloadFunction } from "ai/internal"
import { Schema } from "effect"
import { type ClientFetch, FetchRefused } from "../tools/outbound/fetchForClient.ts"

/**
 * A message part names a URL the gateway will not or cannot fetch for the
 * model: refused by the outbound policy, too large, too slow or unreachable.
 * The client's mistake, named at its 0-based `path` (docs/DESIGN.md §3.18, §3.20).
 */
export class UnfetchablePart extends Schema.TaggedError<UnfetchablePart>()("UnfetchablePart", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `"${this.path}" names a URL that cannot be fetched: ${this.reason}`
  }
}

const sameUrl = (raw: string, href: string): boolean => URL.canParse(raw) && new URL(raw).href === href

/** The first part naming `href`: a file part's URL, else anywhere in a part (a tool output). */
const pathOf = (messages: ReadonlyArray<UIMessage>, href: string): string => {
  for (const [i, message] of messages.entries()) {
    for (const [j, part] of message.parts.entries()) {
      if (part.type === "file" ? sameUrl(part.url, href) : JSON.stringify(part).includes(href)) {
        return `messages[${i}].parts[${j}]`
      }
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
  (fetch: ClientFetch, messages: ReadonlyArray<UIMessage>): DownloadFunction => async (planned) => {
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
        throw new UnfetchablePart({ path: pathOf(messages, url.href), reason: error.reason })
      }
    }
    return fetched
  }
