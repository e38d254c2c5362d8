import type { UIMessageChunk } from "ai"
import type { RunSummary } from "../../agent/RunSummary.ts"
import { argumentsOf } from "../toolArguments.ts"
import { encryptedOf } from "./encryptedReasoning.ts"
import type { ItemEvent, OutputItem } from "./itemEvent.ts"
import {
  approvalRequestItem,
  type CallOutcome,
  finishedItemEvents,
  type HostedView,
  listToolsEvents,
  listToolsItem,
  mcpCallDone,
  mcpCallItem,
  mcpCallStarted,
  type ServerCall
} from "./mcpItems.ts"

interface Open {
  readonly index: number
  readonly item: OutputItem
  text: string
  streamed: boolean
  encrypted?: string | undefined
  outcome?: CallOutcome | undefined
}

/**
 * The run's chunks as the Responses stream's item events (docs/DESIGN.md
 * §14): each text a `message` item with one `output_text` part, reasoning a
 * `reasoning` item with one summary part, the client's tool calls
 * `function_call` items, numbered in the order they opened. parley's own tool
 * calls ran on the server and are not the client's: they are left out,
 * unless the request asked for `mcp` tools (`hosted`), where each label's
 * tools are an `mcp_list_tools` item first, each call an `mcp_call` item,
 * and a call that waits for a person an `mcp_approval_request` item. One
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
  private readonly hosted: HostedView | undefined
  // Server calls that wait for a person: an approval request names them.
  private readonly waiting = new Map<string, ServerCall>()

  /**
   * `prefix` makes the items' ids unique to the answer (the correlation id);
   * `withEncrypted`: reasoning items carry `encrypted_content` (`include` asked for it).
   */
  constructor(clientTools: ReadonlySet<string>, prefix: string, withEncrypted: boolean, hosted?: HostedView) {
    this.clientTools = clientTools
    this.prefix = prefix
    this.withEncrypted = withEncrypted
    this.hosted = hosted
  }

  get calledClientTools(): boolean {
    return this.calls > 0
  }

  /**
   * A text delta of a message item already open, taken in without events:
   * its stream writes the delta event itself from the item's frame (./encode.ts).
   */
  appendText(id: string, delta: string): { readonly item: OutputItem; readonly index: number } | undefined {
    const found = this.open.get(`t${id}`)
    if (found !== undefined) found.text += delta
    return found
  }

  events(chunk: UIMessageChunk): ReadonlyArray<ItemEvent> {
    switch (chunk.type) {
      case "start":
        return (this.hosted?.listings ?? []).flatMap(({ label, tools }) => {
          const index = this.next++
          const item = listToolsItem(`mcpl_${this.prefix}_${index}`, label, tools)
          this.output[index] = item
          return listToolsEvents(item, index)
        })
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
        if (!this.clientTools.has(chunk.toolName)) return this.serverCall(chunk.toolCallId, chunk, true)
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
      case "tool-input-error":
        return this.clientTools.has(chunk.toolName)
          ? []
          : [...this.serverCall(chunk.toolCallId, chunk, false), ...this.outcome(chunk.toolCallId, chunk)]
      case "tool-output-available":
      case "tool-output-error":
        return this.outcome(chunk.toolCallId, chunk)
      case "tool-approval-request": {
        const call = this.waiting.get(chunk.toolCallId)
        if (call === undefined) return []
        this.waiting.delete(chunk.toolCallId)
        const index = this.next++
        const item = approvalRequestItem(chunk.approvalId, chunk.toolCallId, call)
        this.output[index] = item
        return finishedItemEvents(item, index)
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

  // A call that may wait for a person shows once the run says whether it does; one that runs, at once.
  private serverCall(
    toolCallId: string,
    call: ServerCall,
    mayWait: boolean,
    approvalId?: string
  ): ReadonlyArray<ItemEvent> {
    if (this.hosted === undefined) return []
    if (mayWait && this.hosted.needsApproval(call.toolName)) {
      this.waiting.set(toolCallId, call)
      return []
    }
    const [opened, found] = this.opened(`m${toolCallId}`, "mcp", () => mcpCallItem(toolCallId, call, approvalId))
    found.text = argumentsOf(call.input)
    return [...opened, ...mcpCallStarted(found.item, found.index, found.text)]
  }

  // An approved call the run carries out first was not opened in this answer: it opens with its outcome.
  private outcome(toolCallId: string, outcome: CallOutcome): ReadonlyArray<ItemEvent> {
    const resumed = this.hosted?.resumed.get(toolCallId)
    const opened = this.open.has(`m${toolCallId}`) || resumed === undefined
      ? []
      : this.serverCall(toolCallId, resumed, false, resumed.approvalId)
    const found = this.open.get(`m${toolCallId}`)
    if (found === undefined) return []
    found.outcome = outcome
    return [...opened, ...this.close(`m${toolCallId}`)]
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
      case "mcp_call": {
        const [finished, event] = mcpCallDone(item, output_index, text, found.outcome)
        return [event, ...done(finished)]
      }
      default:
        return [
          { type: "response.function_call_arguments.done", ...at, name: item.name, arguments: text },
          ...done({ ...item, status, arguments: text })
        ]
    }
  }
}
