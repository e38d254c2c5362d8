import type { UIMessage, UIMessageChunk } from "ai"
import { Predicate } from "effect"
import { shallowJson } from "../../domain/jsonDepth.ts"
import { isToolPart } from "./historyCheck.ts"

type Part = Record<string, unknown>

const isOutputState = (state: string) => state === "output-available" || state === "output-error"

// A part as JSON carries it: fields the stream never set are absent.
const clean = (part: Part): Part => {
  const out: Part = {}
  for (const key in part) if (part[key] !== undefined) out[key] = part[key]
  return out
}

interface ToolUpdate {
  readonly state: string
  readonly input: unknown
  readonly output?: unknown
  readonly errorText?: string | undefined
  readonly rawInput?: string | undefined
  readonly preliminary?: boolean | undefined
  readonly providerExecuted?: boolean | undefined
  readonly providerMetadata?: unknown
  readonly title?: string | undefined
  readonly inputEncoding?: string | undefined
}

/**
 * Folds a run's chunks into the assistant UIMessage, as the AI SDK's
 * `readUIMessageStream` builds it. Builds the non-streaming JSON response.
 * A run that continues the conversation's last message (`base`, after
 * approvals: docs/DESIGN.md §10) adds to a copy of it, as `useChat` does.
 */
export const collectMessage = <Item = UIMessageChunk>(
  items: Iterable<Item>,
  base?: UIMessage,
  // The chunk an item is (a run event's, ./chunks.ts), taken one at a time: no second array of the answer.
  chunkOf: (item: Item) => UIMessageChunk = (item) => item as UIMessageChunk
): UIMessage => {
  let id = base?.id ?? ""
  let metadata: Part | undefined = Predicate.isObject(base?.metadata) ? { ...base.metadata } : undefined
  const parts: Array<Part> = base === undefined ? [] : structuredClone(base.parts) as unknown as Array<Part>
  const openText = new Map<string, Part>()
  const openReasoning = new Map<string, Part>()
  // Tool parts are looked up in the current step first: a provider may reuse call ids across steps.
  let stepTools = new Map<string, Part>()
  const latestTools = new Map<string, Part>()
  for (const part of parts) {
    if (isToolPart(part as { type: string })) latestTools.set(String(part.toolCallId), part)
  }
  const rawInputs = new Map<string, string>()

  const mergeMetadata = (value: unknown) => {
    if (Predicate.isObject(value)) metadata = metadata === undefined ? { ...value } : { ...metadata, ...value }
  }

  const updateTool = (
    toolCallId: string,
    toolName: string,
    dynamic: boolean,
    update: ToolUpdate,
    existing?: Part
  ) => {
    let part = existing ?? stepTools.get(toolCallId)
    if (part === undefined) {
      part = dynamic ? { type: "dynamic-tool", toolName, toolCallId } : { type: `tool-${toolName}`, toolCallId }
      stepTools.set(toolCallId, part)
      latestTools.set(toolCallId, part)
      parts.push(part)
    } else if (part.type === "dynamic-tool") {
      part.toolName = toolName
    }
    part.state = update.state
    part.input = update.input
    part.output = update.output
    part.errorText = update.errorText
    part.rawInput = update.rawInput
    part.preliminary = update.preliminary
    part.inputEncoding = update.inputEncoding
    if (update.title !== undefined) part.title = update.title
    part.providerExecuted = update.providerExecuted ?? part.providerExecuted
    if (update.providerMetadata != null) {
      part[isOutputState(update.state) ? "resultProviderMetadata" : "callProviderMetadata"] = update.providerMetadata
    }
  }

  const existingTool = (toolCallId: string) => {
    const part = stepTools.get(toolCallId) ?? latestTools.get(toolCallId)
    if (part === undefined) throw new Error(`No tool invocation found for tool call ID "${toolCallId}".`)
    const dynamic = part.type === "dynamic-tool"
    const toolName = dynamic ? String(part.toolName) : String(part.type).slice("tool-".length)
    return { part, dynamic, toolName }
  }

  for (const item of items) {
    const chunk = chunkOf(item)
    switch (chunk.type) {
      case "start":
        if (chunk.messageId != null) id = chunk.messageId
        mergeMetadata(chunk.messageMetadata)
        break
      case "start-step":
        parts.push({ type: "step-start" })
        stepTools = new Map()
        break
      case "text-start":
      case "reasoning-start": {
        const isText = chunk.type === "text-start"
        const part: Part = isText
          ? { type: "text", text: "", providerMetadata: chunk.providerMetadata, state: "streaming" }
          : { type: "reasoning", id: chunk.id, text: "", providerMetadata: chunk.providerMetadata, state: "streaming" }
        ;(isText ? openText : openReasoning).set(chunk.id, part)
        parts.push(part)
        break
      }
      case "text-delta":
      case "reasoning-delta": {
        const part = (chunk.type === "text-delta" ? openText : openReasoning).get(chunk.id)
        if (part === undefined) throw new Error(`${chunk.type} for missing part with ID "${chunk.id}"`)
        part.text = `${part.text}${chunk.delta}`
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata
        break
      }
      case "text-end":
      case "reasoning-end": {
        const open = chunk.type === "text-end" ? openText : openReasoning
        const part = open.get(chunk.id)
        if (part === undefined) throw new Error(`${chunk.type} for missing part with ID "${chunk.id}"`)
        part.state = "done"
        if (chunk.type === "text-end" && chunk.citations != null) part.citations = chunk.citations
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata
        open.delete(chunk.id)
        break
      }
      case "tool-input-start":
        rawInputs.set(chunk.toolCallId, "")
        updateTool(chunk.toolCallId, chunk.toolName, chunk.dynamic === true, {
          state: "input-streaming",
          input: undefined,
          inputEncoding: chunk.inputEncoding,
          providerExecuted: chunk.providerExecuted,
          title: chunk.title,
          providerMetadata: chunk.providerMetadata
        })
        break
      case "tool-input-delta": {
        const { dynamic, part, toolName } = existingTool(chunk.toolCallId)
        const rawInput = `${rawInputs.get(chunk.toolCallId) ?? ""}${chunk.inputTextDelta}`
        rawInputs.set(chunk.toolCallId, rawInput)
        const inputEncoding = part.inputEncoding as string | undefined
        updateTool(chunk.toolCallId, toolName, dynamic, {
          state: "input-streaming",
          input: inputEncoding === "text" ? rawInput : shallowJson(rawInput),
          rawInput,
          inputEncoding
        })
        break
      }
      case "tool-input-available":
      case "tool-input-error": {
        const existing = stepTools.get(chunk.toolCallId)
        const dynamic = existing === undefined ? chunk.dynamic === true : existing.type === "dynamic-tool"
        const isError = chunk.type === "tool-input-error"
        updateTool(chunk.toolCallId, chunk.toolName, dynamic, {
          state: isError ? "output-error" : "input-available",
          input: chunk.input,
          errorText: isError ? chunk.errorText : undefined,
          providerExecuted: chunk.providerExecuted,
          title: isError ? undefined : chunk.title,
          providerMetadata: chunk.providerMetadata
        })
        break
      }
      case "tool-output-available":
      case "tool-output-error": {
        const { dynamic, part, toolName } = existingTool(chunk.toolCallId)
        const isError = chunk.type === "tool-output-error"
        updateTool(chunk.toolCallId, toolName, dynamic, {
          state: isError ? "output-error" : "output-available",
          input: part.input,
          output: isError ? undefined : chunk.output,
          errorText: isError ? chunk.errorText : undefined,
          preliminary: isError ? undefined : chunk.preliminary,
          providerExecuted: chunk.providerExecuted,
          title: part.title as string | undefined,
          providerMetadata: chunk.providerMetadata
        }, part)
        break
      }
      case "tool-approval-request": {
        const { part } = existingTool(chunk.toolCallId)
        part.state = "approval-requested"
        part.approval = { id: chunk.approvalId }
        break
      }
      case "tool-output-denied":
        existingTool(chunk.toolCallId).part.state = "output-denied"
        break
      case "message-metadata":
        mergeMetadata(chunk.messageMetadata)
        break
      case "finish":
        mergeMetadata(chunk.messageMetadata)
        break
      default:
        // finish-step, error and kinds the agent never emits change no part.
        break
    }
  }

  return {
    id,
    role: "assistant",
    ...(metadata === undefined ? {} : { metadata }),
    parts: parts.map(clean) as unknown as UIMessage["parts"]
  }
}
