/**
 * A reasoning item's `encrypted_content` is opaque to the client, which
 * sends it back on the next turn (Codex asks for it with
 * `include: ["reasoning.encrypted_content"]`). parley puts there what the
 * provider needs to take its reasoning back: Anthropic's thinking signature,
 * marked as Anthropic's so that it never reaches another provider as one,
 * or OpenAI's own encrypted reasoning as it came.
 */
const ANTHROPIC = "parley.anthropic."

type Metadata = { readonly [provider: string]: Record<string, unknown> } | undefined

const field = (metadata: unknown, provider: string, name: string): string | undefined => {
  const value = (metadata as Metadata)?.[provider]?.[name]
  return typeof value === "string" && value !== "" ? value : undefined
}

/** What a reasoning chunk's provider metadata gives the item's `encrypted_content`, if anything. */
export const encryptedOf = (providerMetadata: unknown): string | undefined => {
  const signature = field(providerMetadata, "anthropic", "signature")
  return signature === undefined
    ? field(providerMetadata, "openai", "reasoningEncryptedContent")
    : ANTHROPIC + signature
}

/** The provider metadata of a reasoning part sent back, from its item's id and `encrypted_content`. */
export const reasoningMetadata = (
  id: string | null | undefined,
  encrypted: string | null | undefined
): Record<string, Record<string, string>> | undefined => {
  if (encrypted != null && encrypted.startsWith(ANTHROPIC)) {
    return { anthropic: { signature: encrypted.slice(ANTHROPIC.length) } }
  }
  const openai = {
    ...(id == null ? {} : { itemId: id }),
    ...(encrypted == null ? {} : { reasoningEncryptedContent: encrypted })
  }
  return Object.keys(openai).length === 0 ? undefined : { openai }
}
