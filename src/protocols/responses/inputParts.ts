import type { FilePart, TextPart } from "ai"
import { imageFilePart } from "../openai/imagePart.ts"
import { parsedUrl, Refused } from "../refused.ts"
import { reasoningMetadata } from "./encryptedReasoning.ts"
import type { ContentPart, ReasoningItem } from "./request.ts"
import type { Said } from "./turns.ts"

/** The text of a message parley takes only text in (a system message, a tool's output). */
export const textOf = (content: string | ReadonlyArray<ContentPart>, at: string): string =>
  typeof content === "string" ? content : content.map((part, p) => {
    if ("text" in part && typeof part.text === "string") return part.text
    if ("refusal" in part && typeof part.refusal === "string") return part.refusal
    throw new Refused(`"${at}.content[${p}]" is a ${part.type} part, which parley takes only in a user message`)
  }).join("")

const textPart = (part: ContentPart): TextPart | undefined =>
  "text" in part && typeof part.text === "string"
    ? { type: "text", text: part.text }
    : "refusal" in part && typeof part.refusal === "string"
    ? { type: "text", text: part.refusal }
    : undefined

const notTaken = (part: ContentPart, place: string, role: string) =>
  new Refused(`"${place}" is a ${part.type} part, which parley does not take in a ${role} message`)

/** A user's part as the model takes it; an image's URL must parse, as the model's file part holds it parsed. */
export const userPart = (part: ContentPart, place: string): TextPart | FilePart => {
  const text = textPart(part)
  if (text !== undefined) return text
  if (part.type !== "input_image") throw notTaken(part, place, "user")
  const url = "image_url" in part ? part.image_url : undefined
  if (typeof url !== "string") {
    throw new Refused(
      `"${place}" has no image_url: parley keeps no files, send the image as a data URL or an http(s) URL`
    )
  }
  return imageFilePart(parsedUrl(url, `${place}.image_url`, "send a data URL or an http(s) URL"))
}

export const assistantPart = (part: ContentPart, place: string): TextPart => {
  const text = textPart(part)
  if (text === undefined) throw notTaken(part, place, "assistant")
  return text
}

/**
 * Reasoning goes back as the reasoning part of the assistant's turn, its
 * encrypted content and id in the part's metadata, where the provider that
 * made it reads it back (./encryptedReasoning.ts). An item without text is dropped: no provider parley
 * speaks to reads OpenAI's encrypted reasoning (type `openai` is its Chat
 * Completions), and an empty turn would reach the model as an empty message.
 */
export const reasoningPart = (item: ReasoningItem): Said["part"] | undefined => {
  const text = (item.content != null && item.content.length > 0 ? item.content : item.summary)
    .map((part) => part.text).join("\n\n")
  if (text === "") return undefined
  const providerOptions = reasoningMetadata(item.id, item.encrypted_content)
  return { type: "reasoning", text, ...(providerOptions === undefined ? {} : { providerOptions }) }
}
