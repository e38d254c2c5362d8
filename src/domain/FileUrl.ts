import { Schema } from "effect"

/**
 * `data:<type>/<subtype>[;parameter…];base64,<data>`: the AI SDK reads the
 * media type from before the first `;` and decodes everything after the first
 * `,` as base64, so a data: URL lacking either, or with other data, fails it.
 */
const base64DataUrl = /^data:[^/;,]+\/[^;,]+(?:;[^;,]*)*;base64,/i
// Standard or URL-safe alphabet: the AI SDK decodes both.
const base64 = /^[A-Za-z0-9+/_-]*={0,2}$/

const dataUrlProblem = (url: string): string | undefined => {
  const header = base64DataUrl.exec(url)?.[0]
  return header === undefined
    ? "must be a data: URL of the form data:<type>/<subtype>;base64,<data>"
    : base64.test(url.slice(header.length))
    ? undefined
    : `must carry base64 data after ";base64,"`
}

/**
 * What is wrong with the URL of a file part, if anything (docs/DESIGN.md
 * §3.18). The AI SDK turns it into a URL object and downloads it when the
 * model does not take URLs itself, so anything but an absolute http(s) URL
 * or a well-formed data: URL is refused while decoding, with the
 * part's path, instead of failing the run (`Invalid URL`) or reaching other
 * schemes (`file:`). The URL itself is never quoted: it may be megabytes long.
 */
export const fileUrlProblem = (url: string): string | undefined => {
  if (/^data:/i.test(url)) return dataUrlProblem(url)
  if (!URL.canParse(url)) return "must be an absolute http(s) URL or a data: URL"
  // http(s) URLs always have a host: the URL parser refuses them without one.
  const { protocol } = new URL(url)
  return protocol === "http:" || protocol === "https:"
    ? undefined
    : `must be an http(s) or data: URL (not ${protocol})`
}

/** The `url` of a file part: an absolute http(s) URL or a data: URL. */
export const FileUrl = Schema.String.check(
  Schema.makeFilter((url: string) => fileUrlProblem(url) ?? true, { expected: "an http(s) or data: URL" })
).annotate({ description: "An absolute http(s) URL or a `data:` URL (`data:<type>/<subtype>;base64,<data>`)." })
