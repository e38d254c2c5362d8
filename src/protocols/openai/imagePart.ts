import type { FilePart, UIMessage } from "ai"

const dataUrlType = /^data:([^;,]+)[;,]/

/**
 * OpenAI's image parts carry a URL (Chat Completions' `image_url`,
 * Responses' `input_image`): a data URL names its type, any other is an
 * image of the type its server tells, fetched through the outbound policy
 * when the model does not take URLs (docs/DESIGN.md §3.20).
 */
export const imagePart = (url: string): UIMessage["parts"][number] => ({
  type: "file",
  mediaType: dataUrlType.exec(url)?.[1] ?? "image/*",
  url
})

/** An OpenAI image part as the model's file part (`url` must parse as a URL), typed as `imagePart`'s says. */
export const imageFilePart = (url: string): FilePart => ({
  type: "file",
  mediaType: dataUrlType.exec(url)?.[1] ?? "image/*",
  data: { type: "url", url: new URL(url) }
})
