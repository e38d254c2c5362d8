import { readFileSync } from "node:fs"
import type { Reply } from "../../../src/demo/upstream/types.ts"

/**
 * Provider streams as they cross the wire: OpenAI Chat Completions SSE in
 * the shape each provider sends it (OpenAI's `usage: null` on every chunk
 * and `obfuscation`, DeepSeek's `reasoning_content` and usage next to the
 * finish reason, Ollama's usage without details, Azure's prompt filter
 * results first, OpenRouter's processing comments and error event). One
 * `.sse` file per model call, replayed byte for byte.
 */
export interface Recording {
  readonly name: string
  /** The files of the model calls, in order. */
  readonly calls: ReadonlyArray<string>
  /** The connection drops after the last call's bytes. */
  readonly cut?: boolean
  /** What the run must show, so that parley and the AI SDK cannot agree on a broken answer. */
  readonly expect: {
    readonly finishReason: string
    readonly finished: boolean
    /** Only what the provider sent (docs/DESIGN.md §3.17). */
    readonly usage: Record<string, number>
  }
}

export const recordings: ReadonlyArray<Recording> = [
  {
    name: "OpenAI text",
    calls: ["openai-text.sse"],
    expect: {
      finishReason: "stop",
      finished: true,
      usage: { inputTokens: 19, outputTokens: 10, totalTokens: 29, reasoningTokens: 0, cachedInputTokens: 0 }
    }
  },
  {
    name: "OpenAI parallel tool calls, then text",
    calls: ["openai-parallel-tools.1.sse", "openai-parallel-tools.2.sse"],
    expect: {
      finishReason: "stop",
      finished: true,
      usage: { inputTokens: 255, outputTokens: 63, totalTokens: 318, reasoningTokens: 0, cachedInputTokens: 128 }
    }
  },
  {
    name: "DeepSeek reasoning, then text",
    calls: ["deepseek-reasoning.sse"],
    expect: {
      finishReason: "stop",
      finished: true,
      usage: { inputTokens: 13, outputTokens: 92, totalTokens: 105, reasoningTokens: 80, cachedInputTokens: 0 }
    }
  },
  {
    name: "Ollama cut off by the output limit",
    calls: ["ollama-length.sse"],
    expect: { finishReason: "length", finished: false, usage: { inputTokens: 26, outputTokens: 10, totalTokens: 36 } }
  },
  {
    name: "Azure OpenAI content filter",
    calls: ["azure-content-filter.sse"],
    expect: {
      finishReason: "content-filter",
      finished: true,
      usage: { inputTokens: 30, outputTokens: 7, totalTokens: 37, reasoningTokens: 0, cachedInputTokens: 0 }
    }
  },
  {
    name: "OpenAI calls a tool it invented",
    calls: ["openai-invented-tool.1.sse", "openai-invented-tool.2.sse"],
    expect: {
      finishReason: "stop",
      finished: true,
      usage: { inputTokens: 173, outputTokens: 26, totalTokens: 199, reasoningTokens: 0, cachedInputTokens: 0 }
    }
  },
  {
    name: "OpenAI drops the connection in the middle of a tool call",
    calls: ["openai-drop-mid-tool-call.sse"],
    cut: true,
    expect: { finishReason: "error", finished: false, usage: {} }
  },
  {
    name: "OpenRouter sends an error event in the middle of the answer",
    calls: ["openrouter-error-mid-stream.sse"],
    expect: { finishReason: "error", finished: false, usage: {} }
  }
]

const read = (file: string): string => readFileSync(new URL(file, import.meta.url), "utf8")

/**
 * The non-streamed answer a recorded stream adds up to, as the provider
 * sends it for `stream: false`: the deltas joined into one message, the
 * last finish reason and usage; an error event becomes the error body.
 */
export const wholeAnswerOf = (sse: string): string => {
  const chunks: Array<any> = sse.split("\n").filter((line) => line.startsWith("data:"))
    .map((line) => line.slice("data:".length).trim()).filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data))
  const failed = chunks.find((chunk) => chunk.error != null)
  if (failed !== undefined) return JSON.stringify({ error: failed.error })
  const head = chunks.find((chunk) => chunk.id != null) ?? {}
  let content = ""
  let reasoning = ""
  let finishReason: string | null = null
  let usage: unknown = null
  const calls: Array<{ id?: string; type: "function"; function: { name: string; arguments: string } }> = []
  for (const chunk of chunks) {
    if (chunk.usage != null) usage = chunk.usage
    const choice = chunk.choices?.[0]
    if (choice == null) continue
    if (choice.finish_reason != null) finishReason = choice.finish_reason
    const delta = choice.delta ?? {}
    content += delta.content ?? ""
    reasoning += delta.reasoning_content ?? delta.reasoning ?? ""
    for (const call of delta.tool_calls ?? []) {
      const whole = calls[call.index] ??= { type: "function", function: { name: "", arguments: "" } }
      if (call.id != null) whole.id = call.id
      whole.function.name += call.function?.name ?? ""
      whole.function.arguments += call.function?.arguments ?? ""
    }
  }
  const message = {
    role: "assistant",
    content: content === "" ? null : content,
    ...(reasoning === "" ? {} : { reasoning_content: reasoning }),
    ...(calls.length === 0 ? {} : { tool_calls: calls })
  }
  return JSON.stringify({
    id: head.id,
    object: "chat.completion",
    created: head.created,
    model: head.model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage
  })
}

/**
 * The upstream's replies for a recording: each file's bytes, one SSE event
 * a write; or, `whole`, the answer each adds up to (a cut one cut halfway).
 */
export const repliesOf = (recording: Recording, shape: "streamed" | "whole" = "streamed"): Array<Reply> =>
  recording.calls.map((file, index) => {
    const cut = recording.cut === true && index === recording.calls.length - 1
    if (shape === "streamed") return { type: "raw", body: read(file).split(/(?<=\n\n)/), ...(cut ? { cut } : {}) }
    const whole = wholeAnswerOf(read(file))
    return cut
      ? { type: "raw", body: whole.slice(0, whole.length / 2), cut }
      : { type: "raw", body: whole, headers: { "content-type": "application/json" } }
  })
