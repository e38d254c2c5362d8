import type { Delta } from "./chunkShape.ts"

export interface ContentPart {
  readonly type: "text" | "reasoning"
  readonly text: string
}

const NONE: ReadonlyArray<ContentPart> = []

/**
 * A message's or delta's `content` as text and reasoning: a string, or parts
 * where `text` parts are text and `thinking` parts (Mistral's) carry
 * reasoning as text pieces. Empty pieces are dropped. The AI SDK provider's
 * `convertOpenAICompatibleContent`, which it does not export.
 */
export const contentParts = (content: Delta["content"]): ReadonlyArray<ContentPart> => {
  if (content == null) return NONE
  if (typeof content === "string") return content.length > 0 ? [{ type: "text", text: content }] : NONE
  const parts: Array<ContentPart> = []
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string") {
      if (part.text.length > 0) parts.push({ type: "text", text: part.text })
    } else if (part.type === "thinking" && Array.isArray(part.thinking)) {
      const text = part.thinking
        .filter((piece: unknown) =>
          typeof piece === "object" && piece !== null && "type" in piece && piece.type === "text" &&
          "text" in piece && typeof piece.text === "string"
        )
        .map((piece: { text: string }) => piece.text)
        .join("")
      if (text.length > 0) parts.push({ type: "reasoning", text })
    }
  }
  return parts
}
