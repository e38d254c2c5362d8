import type { FilePart } from "ai"

const dataUrlType = /^data:([^;,]+)[;,]/

/**
 * OpenAI's image parts carry a URL (Chat Completions' `image_url`,
 * Responses' `input_image`): a data URL names its type, any other is an
 * image of the type its server tells, fetched through the outbound policy
 * when the model does not take URLs (docs/DESIGN.md §3.20). `url` must
 * parse as a URL.
 */
export const imageFilePart = (url: string): FilePart => ({
  type: "file",
  mediaType: dataUrlType.exec(url)?.[1] ?? "image/*",
  data: { type: "url", url: new URL(url) }
})
