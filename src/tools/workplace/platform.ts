import type { Redacted } from "effect"
import type { RemoteAnswer } from "../messaging/postJson.ts"

export type MessageFormat = "text" | "markdown"

export interface WorkplaceMessage {
  readonly text: string
  readonly format: MessageFormat
}

/** What signs a request: the optional signing secret and the time of sending. */
export interface Signing {
  readonly secret: Redacted.Redacted<string> | undefined
  readonly now: Date
}

/** One incoming-webhook wire format. */
export interface PlatformWire {
  /** As users know it, for error texts. */
  readonly label: string
  /** Why the platform would refuse this message for its size, if it would. */
  readonly tooLong: (message: WorkplaceMessage) => string | undefined
  readonly payload: (message: WorkplaceMessage, signing: Signing) => unknown
  /** undefined when the platform accepted the message, else why it did not (may quote the answer; scrubbed by the caller). */
  readonly refusal: (answer: RemoteAnswer) => string | undefined
}

export const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8")

export const retryAfterNote = (answer: RemoteAnswer): string => {
  const seconds = Number(answer.headers.get("retry-after"))
  return Number.isFinite(seconds) && seconds > 0 ? ` Try again in ${seconds} s.` : " Try again later."
}
