import type { CollectedRun } from "../../agent/Agent.ts"
import type { Answering } from "../../http/chatProtocol.ts"
import type { CompletionWire } from "./decode.ts"
import { CompletionDeltas, finishReasonOf, type ToolCallDelta, usageOf } from "./deltas.ts"
import { completionId } from "./encode.ts"

interface ToolCall {
  readonly id: string
  readonly type: "function"
  readonly function: { readonly name: string; arguments: string }
}

const addCall = (calls: Array<ToolCall>, delta: ToolCallDelta) => {
  const call = calls[delta.index]
  if (call === undefined) {
    calls[delta.index] = {
      id: delta.id ?? "",
      type: "function",
      function: { name: delta.function.name ?? "", arguments: delta.function.arguments }
    }
  } else call.function.arguments += delta.function.arguments
}

/** A run answered in one piece as a `chat.completion` (docs/DESIGN.md §14): the stream's deltas, added up. */
export const collectCompletion = (run: CollectedRun, { correlationId, wire }: Answering<CompletionWire>) => {
  const deltas = new CompletionDeltas()
  let content = ""
  let reasoning = ""
  const calls: Array<ToolCall> = []
  for (const chunk of run.events) {
    const delta = deltas.delta(chunk)
    if (delta === undefined) continue
    content += delta.content ?? ""
    reasoning += delta.reasoning_content ?? ""
    for (const call of delta.tool_calls ?? []) addCall(calls, call)
  }
  return {
    id: completionId(correlationId),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: wire.model,
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        // As OpenAI: no text beside tool calls is null, not "".
        content: content === "" && calls.length > 0 ? null : content,
        refusal: null,
        ...(reasoning === "" ? {} : { reasoning_content: reasoning }),
        ...(calls.length === 0 ? {} : { tool_calls: calls })
      },
      logprobs: null,
      finish_reason: finishReasonOf(run.summary, calls.length > 0)
    }],
    usage: usageOf(run.summary.usage)
  }
}
