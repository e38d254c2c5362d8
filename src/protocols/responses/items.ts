import type { RunEvent } from "../../agent/RunEvent.ts"
import { argumentsOf } from "../toolArguments.ts"
import { encryptedOf } from "./encryptedReasoning.ts"
import {
  argumentsDelta,
  itemAdded,
  type ItemEvent,
  mcpArgumentsDelta,
  messageItem,
  messageItemJson,
  type OutputItem,
  partAdded,
  summaryDelta,
  summaryPartAdded,
  textDelta
} from "./itemEvents.ts"
import {
  approvalRequestItem,
  type CallOutcome,
  type HostedView,
  listToolsEvents,
  listToolsItem,
  mcpCallItem,
  mcpCallStarted,
  type ServerCall
} from "./mcpItems.ts"
import { OpenItems } from "./openItems.ts"

const NONE: ReadonlyArray<ItemEvent> = []

const IN_PROGRESS = JSON.stringify("in_progress")

const reasoningItem = (id: string): OutputItem => ({ id, type: "reasoning", summary: [] })
const openMessage = (id: string) => messageItem(id, "in_progress", [])

/**
 * The run's events as the Responses stream's item events (docs/DESIGN.md
 * §14): each text a `message` item with one `output_text` part, reasoning a
 * `reasoning` item with one summary part, the client's tool calls
 * `function_call` items, numbered in the order they opened. parley's own tool
 * calls ran on the server and are not the client's: they are left out,
 * unless the request asked for `mcp` tools (`hosted`), where each label's
 * tools are an `mcp_list_tools` item first, each call an `mcp_call` item,
 * and a call that waits for a person an `mcp_approval_request` item. One
 * per answer.
 */
export class ResponseItems extends OpenItems {
  private calls = 0

  private readonly hosted: HostedView | undefined
  // Server calls that wait for a person: an approval request names them.
  private readonly waiting = new Map<string, ServerCall>()

  /** `hosted`: the answer's view of the request's `mcp` tools; without it parley's calls stay hidden. */
  constructor(prefix: string, withEncrypted: boolean, hosted?: HostedView) {
    super(prefix, withEncrypted)
    this.hosted = hosted
  }

  get calledClientTools(): boolean {
    return this.calls > 0
  }

  events(chunk: RunEvent): ReadonlyArray<ItemEvent> {
    switch (chunk.type) {
      case "start":
        return (this.hosted?.listings ?? []).flatMap(({ label, tools }) => {
          const [index, id] = this.index("mcpl")
          const item = listToolsItem(id, label, tools)
          return [...listToolsEvents(item, index), this.done(index, item)]
        })
      case "text-delta": {
        if (chunk.delta === "") return NONE
        const delta = this.appendText(chunk.id, chunk.delta)
        if (delta !== undefined) return [delta]
        const open = this.start(`t${chunk.id}`, "msg", openMessage, textDelta)
        open.text = chunk.delta
        return [
          itemAdded.fill(open.indexJson, messageItemJson.fill(open.idJson, IN_PROGRESS, "[]")),
          partAdded.fill(open.idJson, open.indexJson),
          open.delta.fill(JSON.stringify(chunk.delta))
        ]
      }
      case "reasoning-delta": {
        const encrypted = encryptedOf(chunk.providerMetadata)
        // A signature comes in a delta of its own, without text.
        if (chunk.delta === "") {
          const open = this.open.get(`r${chunk.id}`)
          if (open !== undefined) open.encrypted = encrypted ?? open.encrypted
          return NONE
        }
        const [opened, found] = this.opened(`r${chunk.id}`, "rs", reasoningItem, summaryDelta)
        found.text += chunk.delta
        found.encrypted = encrypted ?? found.encrypted
        const delta = found.delta.fill(JSON.stringify(chunk.delta))
        return opened === undefined ? [delta] : [opened, summaryPartAdded.fill(found.idJson, found.indexJson), delta]
      }
      case "text-end":
        return this.close(`t${chunk.id}`)
      case "reasoning-end": {
        const encrypted = encryptedOf(chunk.providerMetadata)
        // Reasoning the provider gave only encrypted is an item still: the client sends it back.
        const [opened, found] = this.open.has(`r${chunk.id}`) || encrypted === undefined
          ? [undefined, this.open.get(`r${chunk.id}`)]
          : this.opened(`r${chunk.id}`, "rs", reasoningItem, summaryDelta)
        if (found !== undefined) found.encrypted = encrypted ?? found.encrypted
        const closing = this.close(`r${chunk.id}`)
        return opened === undefined ? closing : [opened, ...closing]
      }
      case "tool-input-start":
        return chunk.provenance === "client" ? this.openCall(chunk.toolCallId, chunk.toolName) : NONE
      case "tool-input-delta": {
        const call = this.open.get(`c${chunk.toolCallId}`)
        if (call === undefined || chunk.inputTextDelta === "") return NONE
        call.streamed = true
        call.text += chunk.inputTextDelta
        return [call.delta.fill(JSON.stringify(chunk.inputTextDelta))]
      }
      case "tool-call": {
        if (chunk.errorText !== undefined) {
          return chunk.provenance === "client"
            ? NONE
            : [...this.serverCall(chunk.toolCallId, chunk, false), ...this.outcome(chunk.toolCallId, chunk)]
        }
        if (chunk.provenance !== "client") return this.serverCall(chunk.toolCallId, chunk, true)
        const opened = this.open.has(`c${chunk.toolCallId}`) ? NONE : this.openCall(chunk.toolCallId, chunk.toolName)
        const call = this.open.get(`c${chunk.toolCallId}`)!
        // A provider that gives a call whole streams no input: its arguments go at once.
        if (call.streamed) return [...opened, ...this.close(`c${chunk.toolCallId}`)]
        call.text = argumentsOf(chunk.input)
        return [...opened, call.delta.fill(JSON.stringify(call.text)), ...this.close(`c${chunk.toolCallId}`)]
      }
      case "tool-result":
      case "tool-error":
        return this.outcome(chunk.toolCallId, chunk)
      case "tool-approval-request": {
        const call = this.waiting.get(chunk.toolCallId)
        if (call === undefined) return NONE
        this.waiting.delete(chunk.toolCallId)
        const [index] = this.index("mcpr")
        const item = approvalRequestItem(chunk.approvalId, chunk.toolCallId, call)
        const json = JSON.stringify(item)
        // Sent whole: added and done at once.
        return [itemAdded.fill(`${index}`, json), this.done(index, item, json)]
      }
      case "finish":
        return this.closeAll()
      default:
        return NONE
    }
  }

  private openCall(callId: string, name: string): ReadonlyArray<ItemEvent> {
    this.calls++
    const [opened] = this.opened(`c${callId}`, "fc", (id) => ({
      id,
      type: "function_call",
      status: "in_progress",
      call_id: callId,
      name,
      arguments: ""
    }), argumentsDelta)
    return opened === undefined ? NONE : [opened]
  }

  // A call that may wait for a person shows once the run says whether it does; one that runs, at once.
  private serverCall(
    toolCallId: string,
    call: ServerCall,
    mayWait: boolean,
    approvalId?: string
  ): ReadonlyArray<ItemEvent> {
    if (this.hosted === undefined) return NONE
    if (mayWait && this.hosted.needsApproval(call.toolName)) {
      this.waiting.set(toolCallId, call)
      return NONE
    }
    const [opened, found] = this.opened(
      `m${toolCallId}`,
      "mcp",
      () => mcpCallItem(toolCallId, call, approvalId),
      mcpArgumentsDelta
    )
    found.text = argumentsOf(call.input)
    const started = mcpCallStarted(found, found.text)
    return opened === undefined ? started : [opened, ...started]
  }

  // An approved call the run carries out first was not opened in this answer: it opens with its outcome.
  private outcome(toolCallId: string, outcome: CallOutcome): ReadonlyArray<ItemEvent> {
    const resumed = this.hosted?.resumed.get(toolCallId)
    const opened = this.open.has(`m${toolCallId}`) || resumed === undefined
      ? NONE
      : this.serverCall(toolCallId, resumed, false, resumed.approvalId)
    const found = this.open.get(`m${toolCallId}`)
    if (found === undefined) return NONE
    found.outcome = outcome
    return [...opened, ...this.close(`m${toolCallId}`)]
  }
}
