import type { UIMessageChunk } from "ai"
import type { RunSummary } from "../../agent/RunSummary.ts"
import { argumentsOf } from "../toolArguments.ts"
import { encryptedOf } from "./encryptedReasoning.ts"

/** An output item as the response lists it (`message`, `reasoning`, `function_call`). */
export type OutputItem = Record<string, unknown> & { readonly id: string; readonly type: string }

/** A stream event before its `sequence_number`, which the stream numbers (./encode.ts). */
export type ItemEvent = Record<string, unknown> & { readonly type: string }

interface Open {
  readonly index: number
  readonly item: OutputItem
  text: string
  streamed: boolean
  encrypted?: string | undefined
}

/**
 * The run's chunks as the Responses stream's item events (docs/DESIGN.md
 * §14): each text a `message` item with one `output_text` part, reasoning a
 * `reasoning` item with one summary part, the client's tool calls
 * `function_call` items, numbered in the order they opened. parley's own tool
 * calls ran on the server and are not the client's: they are left out. One
 * per answer: it numbers the items and keeps the finished ones, which are
 * the response's `output`.
 */
export class ResponseItems {
  private readonly clientTools: ReadonlySet<string>
  private readonly prefix: string
  // Open items by what opened them: `t`, `r` or `c` and a text, reasoning or tool call id.
  private readonly open = new Map<string, Open>()
  readonly output: Array<OutputItem> = []
  private calls = 0
  private next = 0
  summary: RunSummary | undefined

  private readonly withEncrypted: boolean

  /**
   * `prefix` makes the items' ids unique to the answer (the correlation id);
   * `withEncrypted`: reasoning items carry `encrypted_content` (`include` asked for it).
   */
  constructor(clientTools: ReadonlySet<string>, prefix: string, withEncrypted: boolean) {
    this.clientTools = clientTools
    this.prefix = prefix
    this.withEncrypted = withEncrypted
  }

  get calledClientTools(): boolean {
    return this.calls > 0
  }

  events(chunk: UIMessageChunk): ReadonlyArray<ItemEvent> {
    switch (chunk.type) {
      case "text-delta": {
        if (chunk.delta === "") return []
        const [opened, found] = this.opened(`t${chunk.id}`, "msg", (id) => ({
          id,
          type: "message",
          role: "assistant",
          status: "in_progress",
          content: []
        }))
        found.text += chunk.delta
        const at = { item_id: found.item.id, output_index: found.index, content_index: 0 }
        const part = opened.length === 0
          ? []
          : [{ type: "response.content_part.added", ...at, part: { type: "output_text", text: "", annotations: [] } }]
        return [...opened, ...part, { type: "response.output_text.delta", ...at, delta: chunk.delta, logprobs: [] }]
      }
      case "reasoning-delta": {
        const encrypted = encryptedOf(chunk.providerMetadata)
        // A signature comes in a delta of its own, without text.
        if (chunk.delta === "") {
          const open = this.open.get(`r${chunk.id}`)
          if (open !== undefined) open.encrypted = encrypted ?? open.encrypted
          return []
        }
        const [opened, found] = this.opened(`r${chunk.id}`, "rs", (id) => ({ id, type: "reasoning", summary: [] }))
        found.text += chunk.delta
        found.encrypted = encrypted ?? found.encrypted
        const at = { item_id: found.item.id, output_index: found.index, summary_index: 0 }
        const part = opened.length === 0
          ? []
          : [{ type: "response.reasoning_summary_part.added", ...at, part: { type: "summary_text", text: "" } }]
        return [...opened, ...part, { type: "response.reasoning_summary_text.delta", ...at, delta: chunk.delta }]
      }
      case "text-end":
        return this.close(`t${chunk.id}`)
      case "reasoning-end": {
        const encrypted = encryptedOf(chunk.providerMetadata)
        // Reasoning the provider gave only encrypted is an item still: the client sends it back.
        const [opened, found] = this.open.has(`r${chunk.id}`) || encrypted === undefined
          ? [[], this.open.get(`r${chunk.id}`)]
          : this.opened(`r${chunk.id}`, "rs", (id) => ({ id, type: "reasoning", summary: [] }))
        if (found !== undefined) found.encrypted = encrypted ?? found.encrypted
        return [...opened, ...this.close(`r${chunk.id}`)]
      }
      case "tool-input-start":
        return this.clientTools.has(chunk.toolName) ? this.openCall(chunk.toolCallId, chunk.toolName) : []
      case "tool-input-delta": {
        const call = this.open.get(`c${chunk.toolCallId}`)
        if (call === undefined || chunk.inputTextDelta === "") return []
        call.streamed = true
        call.text += chunk.inputTextDelta
        return [{
          type: "response.function_call_arguments.delta",
          item_id: call.item.id,
          output_index: call.index,
          delta: chunk.inputTextDelta
        }]
      }
      case "tool-input-available": {
        if (!this.clientTools.has(chunk.toolName)) return []
        const opened = this.open.has(`c${chunk.toolCallId}`) ? [] : this.openCall(chunk.toolCallId, chunk.toolName)
        const call = this.open.get(`c${chunk.toolCallId}`)!
        // A provider that gives a call whole streams no input: its arguments go at once.
        if (call.streamed) return [...opened, ...this.close(`c${chunk.toolCallId}`)]
        call.text = argumentsOf(chunk.input)
        return [...opened, {
          type: "response.function_call_arguments.delta",
          item_id: call.item.id,
          output_index: call.index,
          delta: call.text
        }, ...this.close(`c${chunk.toolCallId}`)]
      }
      case "finish":
        this.summary = chunk.messageMetadata as RunSummary
        return this.closeAll()
      default:
        return []
    }
  }

  /** Ends the items still open (a run that failed or broke off), as incomplete. */
  closeAll(status = "completed"): ReadonlyArray<ItemEvent> {
    return [...this.open.keys()].flatMap((key) => this.close(key, status))
  }

  private opened(key: string, kind: string, item: (id: string) => OutputItem): [ReadonlyArray<ItemEvent>, Open] {
    const found = this.open.get(key)
    if (found !== undefined) return [[], found]
    const index = this.next++
    const made: Open = { index, item: item(`${kind}_${this.prefix}_${index}`), text: "", streamed: false }
    this.open.set(key, made)
    return [[{ type: "response.output_item.added", output_index: index, item: made.item }], made]
  }

  private openCall(callId: string, name: string): ReadonlyArray<ItemEvent> {
    this.calls++
    return this.opened(`c${callId}`, "fc", (id) => ({
      id,
      type: "function_call",
      status: "in_progress",
      call_id: callId,
      name,
      arguments: ""
    }))[0]
  }

  private close(key: string, status = "completed"): ReadonlyArray<ItemEvent> {
    const found = this.open.get(key)
    if (found === undefined) return []
    this.open.delete(key)
    const { encrypted, index: output_index, item, text } = found
    const done = (finished: OutputItem): ReadonlyArray<ItemEvent> => {
      this.output[output_index] = finished
      return [{ type: "response.output_item.done", output_index, item: finished }]
    }
    const at = { item_id: item.id, output_index }
    switch (item.type) {
      case "message": {
        const part = { type: "output_text", text, annotations: [] }
        return [
          { type: "response.output_text.done", ...at, content_index: 0, text, logprobs: [] },
          { type: "response.content_part.done", ...at, content_index: 0, part },
          ...done({ ...item, status, content: [part] })
        ]
      }
      case "reasoning": {
        const summary = text === "" ? [] : [{ type: "summary_text", text }]
        const closing = text === ""
          ? []
          : [
            { type: "response.reasoning_summary_text.done", ...at, summary_index: 0, text },
            { type: "response.reasoning_summary_part.done", ...at, summary_index: 0, part: summary[0] }
          ]
        const kept = this.withEncrypted && encrypted !== undefined ? { encrypted_content: encrypted } : {}
        return [...closing, ...done({ ...item, summary, ...kept })]
      }
      default:
        return [
          { type: "response.function_call_arguments.done", ...at, name: item.name, arguments: text },
          ...done({ ...item, status, arguments: text })
        ]
    }
  }
}
