/**
 * Images and files inside tool outputs. A screenshot comes back from a tool
 * as a content item (`{type: "image-data", data, mediaType}`, the AI SDK's
 * tool-result content shapes, `{type: "media", …}`) or as a `data:` URL;
 * either is sent to the model as an image, not as the text of its base64.
 */
import { isRecord } from "../domain/isRecord.ts"

const mediaItemTypes = new Set([
  "media",
  "image",
  "file",
  "file-data",
  "file-url",
  "file-id",
  "file-reference",
  "image-data",
  "image-url",
  "image-file-id",
  "image-file-reference"
])
const payloadKeys = ["data", "url", "image", "fileId", "providerReference"]
const dataUrl = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/\r\n]*={0,2}$/

// Outputs are parsed JSON; a nesting deeper than this is not walked (a hostile body could overflow the stack).
const MAX_DEPTH = 64

type Json = Record<string, unknown>

export const isMedia = (value: unknown): boolean =>
  typeof value === "string"
    ? value.startsWith("data:") && dataUrl.test(value)
    : isRecord(value) && (
      (typeof value.type === "string" && mediaItemTypes.has(value.type) && payloadKeys.some((key) => key in value)) ||
      (typeof value.mediaType === "string" && typeof value.data === "string")
    )

const isImage = (media: unknown): boolean =>
  typeof media === "string"
    ? media.startsWith("data:image/")
    : isRecord(media) && (
      (typeof media.type === "string" && media.type.startsWith("image")) ||
      // A full media type, or (in a content output's `file` item) its top-level segment alone.
      (typeof media.mediaType === "string" && /^image(?:\/|$)/.test(media.mediaType))
    )

/** The text that stands in for an image or file pruning removed. */
export const placeholderText = (media: unknown): string =>
  isImage(media) ? "[image omitted by pruning]" : "[file omitted by pruning]"

/** A content item in place of a media item, a string in place of a `data:` URL. */
export const placeholderFor = (media: unknown): unknown =>
  typeof media === "string" ? placeholderText(media) : { type: "text", text: placeholderText(media) }

/**
 * `value` with every media item replaced by `replace(item)` (`undefined`
 * drops it); `value` itself when it holds none, so unchanged outputs keep
 * their identity (and their cached counts).
 */
export const replaceMedia = (value: unknown, replace: (media: unknown) => unknown, depth = 0): unknown => {
  if (isMedia(value)) return replace(value)
  if (depth >= MAX_DEPTH || typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) {
    let copy: Array<unknown> | undefined
    for (let i = 0; i < value.length; i++) {
      const item = replaceMedia(value[i], replace, depth + 1)
      if (item !== value[i]) (copy ??= value.slice())[i] = item
    }
    return copy ?? value
  }
  let copy: Json | undefined
  for (const key in value) {
    const item = (value as Json)[key]
    const replaced = replaceMedia(item, replace, depth + 1)
    if (replaced !== item) (copy ??= { ...value })[key] = replaced
  }
  return copy ?? value
}

/** The output without its media items, and how many there were. */
export const splitMedia = (value: unknown): { readonly rest: unknown; readonly media: number } => {
  let media = 0
  const rest = replaceMedia(value, () => {
    media++
    return undefined
  })
  return { rest, media }
}
