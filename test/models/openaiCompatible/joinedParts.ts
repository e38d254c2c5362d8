import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"

// Consecutive deltas of one block joined: a stream sends a text in pieces, a whole answer in one.
export const joined = (parts: ReadonlyArray<LanguageModelV4StreamPart>) => {
  const out: Array<any> = []
  // Raw chunks are the network's, one per event or one for all.
  for (const part of parts.filter((part) => part.type !== "raw")) {
    const last = out.at(-1)
    const delta = part.type === "text-delta" || part.type === "reasoning-delta" || part.type === "tool-input-delta"
    if (delta && last?.type === part.type && last.id === part.id) last.delta += part.delta
    else out.push(delta ? { ...part } : part)
  }
  return out
}
