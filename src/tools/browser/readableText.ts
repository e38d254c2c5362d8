export interface ReadableText {
  readonly text: string
  /** Characters before truncation, so the model knows how much it did not see. */
  readonly totalChars: number
  readonly truncated: boolean
}

/**
 * Rendered text (`innerText`) made compact for a model: no trailing spaces,
 * no runs of blank lines, non-breaking spaces as spaces, at most `maxChars`.
 */
export const readableText = (rendered: string, maxChars: number): ReadableText => {
  const text = rendered
    .replace(/\r\n?/g, "\n")
    .replace(/\u00a0/g, " ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
  return text.length > maxChars
    ? { text: `${text.slice(0, maxChars)}…`, totalChars: text.length, truncated: true }
    : { text, totalChars: text.length, truncated: false }
}
