import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider"
import type { UIMessage, UIMessageChunk } from "ai"
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { Agent, type CollectedRun, type RunFailure } from "../../src/agent/Agent.ts"
import type { AgentRun } from "../../src/agent/AgentRun.ts"
import type { RunEvent } from "../../src/agent/RunEvent.ts"
import type { RunSink } from "../../src/agent/RunSink.ts"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { uiChunk } from "../../src/protocols/ui/chunks.ts"
import { uiConversation } from "../../src/protocols/ui/conversation.ts"
import type { Tool } from "../../src/tools/Tool.ts"
import { makeKey } from "../support/keys.ts"

/** The agent with the test settings (the default outbound policy and fetch limits). */
export const agentLayer = Agent.layer.pipe(Layer.provide(AppConfig.layerTest()))

export type Script = ReadonlyArray<ReadonlyArray<LanguageModelV4StreamPart>>

export const usage = (
  input: number,
  output: number,
  extra: { readonly reasoning?: number; readonly cacheRead?: number } = {}
): LanguageModelV4Usage => ({
  inputTokens: { total: input, noCache: undefined, cacheRead: extra.cacheRead, cacheWrite: undefined },
  outputTokens: { total: output, text: undefined, reasoning: extra.reasoning }
})

export const NO_USAGE: LanguageModelV4Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined }
}

export const text = (id: string, ...deltas: ReadonlyArray<string>): Array<LanguageModelV4StreamPart> => [
  { type: "text-start", id },
  ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id, delta })),
  { type: "text-end", id }
]

export const reasoning = (id: string, ...deltas: ReadonlyArray<string>): Array<LanguageModelV4StreamPart> => [
  { type: "reasoning-start", id },
  ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: "reasoning-delta", id, delta })),
  { type: "reasoning-end", id }
]

/** A tool call; `streamed` also sends its arguments as input deltas first. */
export const toolCall = (
  toolCallId: string,
  toolName: string,
  input: string,
  streamed = false
): Array<LanguageModelV4StreamPart> => [
  ...(streamed
    ? [
      { type: "tool-input-start", id: toolCallId, toolName } as const,
      { type: "tool-input-delta", id: toolCallId, delta: input.slice(0, 5) } as const,
      { type: "tool-input-delta", id: toolCallId, delta: input.slice(5) } as const,
      { type: "tool-input-end", id: toolCallId } as const
    ]
    : []),
  { type: "tool-call", toolCallId, toolName, input }
]

export const finish = (
  unified: "stop" | "tool-calls" | "length",
  tokens: LanguageModelV4Usage = usage(10, 5)
): LanguageModelV4StreamPart => ({ type: "finish", finishReason: { unified, raw: unified }, usage: tokens })

export const start: LanguageModelV4StreamPart = { type: "stream-start", warnings: [] }

/** A model answering its n-th call with `script[n]` (the last answer repeats). */
export const scriptedModel = (script: Script): MockLanguageModelV4 => {
  let calls = 0
  return new MockLanguageModelV4({
    provider: "mock.chat",
    modelId: "scripted",
    doStream: async () => {
      const answer = script[Math.min(calls++, script.length - 1)] ?? []
      return { stream: convertArrayToReadableStream([...answer]) }
    }
  })
}

export const userMessage = (text: string, id = "u1"): UIMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }]
})

/** The model messages the ui protocol makes of UI messages, which the AI SDK's references take. */
export const asModel = (messages: ReadonlyArray<UIMessage>) =>
  Effect.map(uiConversation(messages), (conversation) => conversation.messages)

export const makeRun = (
  model: LanguageModelV4,
  tools: ReadonlyArray<Tool>,
  overrides: Partial<AgentRun> = {}
): AgentRun => ({
  model,
  provider: "mock",
  system: "You are a test assistant.",
  messages: [{ role: "user", content: [{ type: "text", text: "What is the weather in Paris?" }] }],
  tools: tools.map((tool) => ({ tool, context: {} })),
  sandboxId: null,
  key: makeKey(),
  maxSteps: 30,
  timeout: "30 seconds",
  ...overrides
})

/**
 * A run event as the `ui` door's chunk (the agent's events are compared with what `streamText` makes of
 * the same answers); a provider failure worded `failed: …`.
 */
export const asChunk = (event: RunEvent): UIMessageChunk =>
  event.type === "error" ? { type: "error", errorText: `failed: ${event.failure.message}` } : uiChunk(event)

/** A streamed answer's sink that keeps every event as the `ui` door's chunk (`asChunk`). */
export const streamingTo = (chunks: Array<UIMessageChunk>): RunSink => ({
  emit: (event) => void chunks.push(asChunk(event)),
  streams: true
})

/** Runs the agent as a stream and keeps every chunk it emitted, even when it then fails. */
export const runCollecting = (run: AgentRun) =>
  Effect.gen(function*() {
    const agent = yield* Agent
    const chunks: Array<UIMessageChunk> = []
    const exit = yield* Effect.exit(agent.run(run, streamingTo(chunks)))
    return { chunks, exit }
  }).pipe(Effect.provide(agentLayer))

/** Agent.collect: the chunks and the summary. */
export const runCollected = (
  run: AgentRun
): Effect.Effect<CollectedRun, RunFailure> =>
  Effect.gen(function*() {
    const agent = yield* Agent
    return yield* agent.collect(run)
  }).pipe(Effect.provide(agentLayer))

export const runChunks = (
  run: AgentRun
): Effect.Effect<Array<UIMessageChunk>, RunFailure> =>
  Effect.map(runCollected(run), ({ events }) => events.map(asChunk))

/** The finish chunk's metadata. */
export const finishMetadata = (chunks: ReadonlyArray<UIMessageChunk>): unknown => {
  const last = chunks.at(-1)
  return last?.type === "finish" ? last.messageMetadata : undefined
}

/** A model whose (every) answer sends `parts` and then stalls until the request is aborted. */
export const stallingModel = (parts: ReadonlyArray<LanguageModelV4StreamPart>) => {
  const cancelled: Array<unknown> = []
  const model = new MockLanguageModelV4({
    provider: "mock.chat",
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part)
        },
        cancel(reason) {
          cancelled.push(reason)
        }
      })
    })
  })
  return { model, cancelled }
}

/** The error a run failed with, if it failed with one. */
export const upstreamFailure = (
  exit: Exit.Exit<unknown, RunFailure>
): RunFailure | undefined => Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined
