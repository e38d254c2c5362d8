import type { SharedV4ProviderMetadata } from "@ai-sdk/provider"
import { generateId } from "ai"

export type ProviderMetadata = SharedV4ProviderMetadata | undefined

/** A text or reasoning block as the model history keeps it. */
export interface BlockContent {
  readonly type: "text" | "reasoning"
  text: string
  providerMetadata: ProviderMetadata
}

/** A text or reasoning block the model opened and has not closed yet. */
export interface OpenBlock {
  readonly uiId: string
  readonly content: BlockContent
}

// Keeps an id unique within the run; providers restart their block ids ("0") every call.
const reserveId = (used: Set<string>, id: string): string => {
  if (!used.has(id)) {
    used.add(id)
    return id
  }
  let fresh = generateId()
  while (used.has(fresh)) fresh = generateId()
  used.add(fresh)
  return fresh
}

/**
 * The text and reasoning blocks of one run that are open, by the provider's
 * block id, each under a UI id no other block of its type had in the run.
 */
export class OpenBlocks {
  private readonly text = new Map<string, OpenBlock>()
  private readonly reasoning = new Map<string, OpenBlock>()
  private readonly textIds = new Set<string>()
  private readonly reasoningIds = new Set<string>()

  /** Opens a block; its content collects the deltas for the history. */
  open(type: BlockContent["type"], id: string, providerMetadata: ProviderMetadata): OpenBlock {
    const isText = type === "text"
    const content: BlockContent = { type, text: "", providerMetadata }
    const block: OpenBlock = { uiId: isText ? reserveId(this.textIds, id) : reserveId(this.reasoningIds, id), content }
    ;(isText ? this.text : this.reasoning).set(id, block)
    return block
  }

  get(type: BlockContent["type"], id: string): OpenBlock | undefined {
    return (type === "text" ? this.text : this.reasoning).get(id)
  }

  /** Removes a block and returns it; undefined if it was not open. */
  close(type: BlockContent["type"], id: string): OpenBlock | undefined {
    const open = type === "text" ? this.text : this.reasoning
    const block = open.get(id)
    if (block !== undefined) open.delete(id)
    return block
  }

  /** Closes every open block and returns them, the text blocks first. */
  closeAll(): Array<OpenBlock> {
    const blocks = [...this.text.values(), ...this.reasoning.values()]
    this.text.clear()
    this.reasoning.clear()
    return blocks
  }
}
