/** Sent when `replyPrompts.checkBackReply` is not configured. */
export const DEFAULT_CHECK_BACK_REPLY = "Thanks for asking! Let me check that for you and get back to you shortly."

// NFKC folds full-width digits into ASCII ones; leading zeros do not make a figure new ("09:00" is "9:00").
const figures = (text: string): ReadonlyArray<string> =>
  (text.normalize("NFKC").match(/\d+/g) ?? []).map((run) => run.replace(/^0+(?=\d)/, ""))

/**
 * The figures a generated reply states that none of `sources` (the facts, the
 * instructions, the conversation) contains. Invented pay, hours, dates and
 * addresses are the costly mistakes, and they carry figures; a reply with one
 * is replaced by the check-back reply.
 */
export const inventedFigures = (reply: string, sources: ReadonlyArray<string>): ReadonlyArray<string> => {
  const known = new Set(sources.flatMap(figures))
  return [...new Set(figures(reply).filter((figure) => !known.has(figure)))]
}
