import type { UIMessage } from "ai"
import { isUrl, UnfetchablePart } from "../../agent/partDownloads.ts"
import type { ApiFailure } from "../../http/errorTable.ts"

/** The first part naming `href`: a file part's URL, else anywhere in a part (a tool output). */
const pathOf = (messages: ReadonlyArray<UIMessage>, href: string): string | undefined => {
  for (const [i, message] of messages.entries()) {
    for (const [j, part] of message.parts.entries()) {
      if (part.type === "file" ? isUrl(part.url, href) : JSON.stringify(part).includes(href)) {
        return `messages[${i}].parts[${j}]`
      }
    }
  }
  return undefined
}

/** A URL the core could not fetch, named at the client's part that holds it (the spec's messages, not the model's). */
export const withPartPaths = (failure: ApiFailure, messages: ReadonlyArray<UIMessage>): ApiFailure => {
  if (failure._tag !== "UnfetchablePart") return failure
  const path = pathOf(messages, failure.url)
  return path === undefined ? failure : new UnfetchablePart({ path, reason: failure.reason, url: failure.url })
}
