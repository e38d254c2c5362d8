import { Schema } from "effect"

/** A browser action failed; `message` is written for the model. */
export class BrowserError extends Schema.TaggedError<BrowserError>()("BrowserError", {
  message: Schema.String
}) {}

const MAX_MESSAGE_LENGTH = 600

/**
 * Playwright errors carry a one-line summary, then a "Call log:" whose first
 * entry names what was awaited ("waiting for locator('#send')"). The model
 * needs both; the rest of the log is noise.
 */
export const toBrowserError = (error: unknown): BrowserError => {
  if (error instanceof BrowserError) return error
  const text = error instanceof Error ? error.message : String(error)
  const [summary = "", log = ""] = text.split(/\n\s*Call log:\s*\n/)
  const waitingFor = log.split("\n").map((line) => line.replace(/^\s*-\s*/, "").trim()).find((line) => line.length > 0)
  const message = [summary.trim(), waitingFor].filter((part) => part !== undefined && part !== "").join(" — ")
  return new BrowserError({
    message: message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message
  })
}
