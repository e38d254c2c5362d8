import type { CollectedRun } from "../../agent/Agent.ts"
import { shallowJson } from "../../domain/jsonDepth.ts"
import type { Answering } from "../../http/chatProtocol.ts"
import type { MessagesWire } from "./decode.ts"
import { messageShell } from "./encode.ts"
import { type BlockEvent, MessageEvents, stopReasonOf, usageOf } from "./events.ts"

type Block = Record<string, unknown>

// A call whose arguments are no JSON parley takes (docs/DESIGN.md §3.9) shows none.
const parsed = (json: string): unknown => shallowJson(json === "" ? "{}" : json) ?? {}

const apply = (blocks: Array<Block>, json: Map<number, string>, event: BlockEvent) => {
  switch (event.type) {
    case "content_block_start":
      blocks[event.index] = { ...event.content_block }
      return
    case "content_block_stop": {
      const block = blocks[event.index]!
      if (block.type === "tool_use") block.input = parsed(json.get(event.index) ?? "")
      return
    }
    case "content_block_delta": {
      const block = blocks[event.index]!
      const delta = event.delta
      if (delta.type === "text_delta") block.text += delta.text
      else if (delta.type === "thinking_delta") block.thinking += delta.thinking
      else if (delta.type === "signature_delta") block.signature = delta.signature
      else json.set(event.index, (json.get(event.index) ?? "") + delta.partial_json)
    }
  }
}

/** A run answered in one piece as Anthropic's message (docs/DESIGN.md §14): the stream's events, added up. */
export const collectMessage = (run: CollectedRun, { correlationId, wire }: Answering<MessagesWire>) => {
  const events = new MessageEvents(wire.hosted)
  const blocks: Array<Block> = []
  const json = new Map<number, string>()
  for (const chunk of run.events) for (const event of events.events(chunk)) apply(blocks, json, event)
  return {
    ...messageShell(correlationId, wire.model),
    content: blocks,
    stop_reason: stopReasonOf(run.summary, events.calledClientTools),
    usage: usageOf(run.summary.usage)
  }
}
