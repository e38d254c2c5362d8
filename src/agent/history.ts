import type { LanguageModelV4, LanguageModelV4Prompt, LanguageModelV4TextPart } from "@ai-sdk/provider"
import type { AssistantContent, ModelMessage, ToolContent } from "ai"
import { convertToLanguageModelPrompt, type DownloadFunction } from "ai/internal"
import { Effect } from "effect"
import { InvalidHistory } from "../domain/requestErrors.ts"
import { redact } from "../models/ProviderFailure.ts"
import type { ClientFetch } from "../tools/outbound/fetchForClient.ts"
import type { Tool } from "../tools/Tool.ts"
import { partDownloads, UnfetchablePart } from "./partDownloads.ts"
import type { ToolOutcome } from "./runTools.ts"
import type { StepContent } from "./StepTranslator.ts"
import type { ParsedToolCall } from "./toolInput.ts"

/** What prompt conversion needs to know about the model, read once per run. */
export interface PromptTarget {
  readonly supportedUrls: Record<string, Array<RegExp>>
  readonly provider: string
  /** Fetches the URLs the model does not take itself, through the outbound policy (docs/DESIGN.md §3.20). */
  readonly download: DownloadFunction
}

// The same conversion `streamText` applies (file downloads, provider-specific tool outputs).
const toPrompt = (
  target: PromptTarget,
  instructions: string | undefined,
  messages: Array<ModelMessage>,
  abortSignal?: AbortSignal
) =>
  convertToLanguageModelPrompt({
    prompt: { instructions, messages },
    supportedUrls: target.supportedUrls,
    download: target.download,
    provider: target.provider,
    ...(abortSignal === undefined ? {} : { abortSignal })
  })

const invalidHistory = (provider: string) => (error: unknown) =>
  error instanceof UnfetchablePart ? error : new InvalidHistory({
    path: "messages",
    problem: `cannot be sent to ${provider}: ${redact(error instanceof Error ? error.message : String(error))}`
  })

/**
 * The history with the outputs of the run's tools told to the model as in
 * the run (`toModelOutput`), as the AI SDK's conversion does given a tool
 * set: protocols keep a tool's output as it came, a text or a JSON value.
 */
const toldAsInRun = (
  messages: ReadonlyArray<ModelMessage>,
  tools: ReadonlyArray<{ readonly tool: Tool }>
): Array<ModelMessage> => {
  const told = new Map(
    tools.flatMap(({ tool }) => tool.toModelOutput === undefined ? [] : [[tool.name, tool.toModelOutput]])
  )
  if (told.size === 0) return Array.from(messages)
  return messages.map((message) => {
    if (message.role !== "tool") return message
    let content: ToolContent | undefined
    message.content.forEach((part, index) => {
      if (part.type !== "tool-result" || (part.output.type !== "json" && part.output.type !== "text")) return
      const toModelOutput = told.get(part.toolName)
      if (toModelOutput === undefined) return
      ;(content ??= message.content.slice())[index] = { ...part, output: toModelOutput(part.output.value) }
    })
    return content === undefined ? message : { ...message, content }
  })
}

/**
 * The conversation as the model is sent it, and how to make prompts for the
 * model. Outputs of the run's tools in the history are told to the model as
 * in the run.
 */
export const conversation = (
  model: LanguageModelV4,
  provider: string,
  messages: ReadonlyArray<ModelMessage>,
  fetch: ClientFetch,
  tools: ReadonlyArray<{ readonly tool: Tool }> = []
): Effect.Effect<
  { readonly target: PromptTarget; readonly messages: Array<ModelMessage> },
  InvalidHistory | UnfetchablePart
> =>
  Effect.tryPromise({
    try: async () => ({
      target: {
        supportedUrls: await model.supportedUrls,
        provider: model.provider.split(".")[0] ?? model.provider,
        download: partDownloads(fetch, messages)
      },
      messages: toldAsInRun(messages, tools)
    }),
    catch: invalidHistory(provider)
  })

/**
 * A conversation of user messages of text alone, before any approval: the
 * target and first prompt `conversation` and `initialPrompt` would make, made
 * without the AI SDK's asynchronous conversion (~2 µs and a fiber
 * suspension a request, BENCHMARKS.md; property-tested against it).
 * Anything else, or a model whose URLs come as a promise: undefined.
 */
export const plainStart = (
  model: LanguageModelV4,
  system: string,
  messages: ReadonlyArray<ModelMessage>,
  fetch: ClientFetch
): { readonly target: PromptTarget; readonly prompt: LanguageModelV4Prompt } | undefined => {
  const supportedUrls = model.supportedUrls
  if (typeof (supportedUrls as { then?: unknown }).then === "function") return undefined
  const prompt: LanguageModelV4Prompt = [{ role: "system", content: system }]
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content === "string" || message.providerOptions !== undefined) {
      return undefined
    }
    const content: Array<{ type: "text"; text: string; providerOptions: undefined }> = []
    for (const part of message.content) {
      if (part.type !== "text" || part.providerOptions !== undefined) return undefined
      // As the AI SDK: an empty text part is not sent, and a sent one says it has no provider options.
      if (part.text.length > 0) content.push({ type: "text", text: part.text, providerOptions: undefined })
    }
    // The keys are there, undefined, as the AI SDK leaves them; its types leave no room for that.
    prompt.push(
      { role: "user", content, providerOptions: undefined } as unknown as {
        role: "user"
        content: Array<LanguageModelV4TextPart>
      }
    )
  }
  return {
    target: {
      supportedUrls: supportedUrls as Record<string, Array<RegExp>>,
      provider: model.provider.split(".")[0] ?? model.provider,
      download: partDownloads(fetch, messages)
    },
    prompt
  }
}

/**
 * The first step's prompt: the system prompt, then the conversation (with
 * the results of the calls approved in it, when the run carried them out).
 * A part whose URL the gateway may not fetch is the client's mistake too
 * (`fetch` applies the outbound policy).
 */
export const initialPrompt = (
  target: PromptTarget,
  provider: string,
  system: string,
  messages: Array<ModelMessage>
): Effect.Effect<LanguageModelV4Prompt, InvalidHistory | UnfetchablePart> =>
  Effect.tryPromise({
    try: (signal) => toPrompt(target, system, messages, signal),
    catch: invalidHistory(provider)
  })

export const toModelOutput = (outcome: ToolOutcome, tool: Tool | undefined) =>
  !outcome.ok
    ? { type: "error-text" as const, value: outcome.errorText }
    : tool?.toModelOutput !== undefined
    ? tool.toModelOutput(outcome.output)
    : typeof outcome.output === "string"
    ? { type: "text" as const, value: outcome.output }
    : { type: "json" as const, value: outcome.output }

/**
 * What a finished step adds to the prompt, as the AI SDK's response messages:
 * the assistant's text, reasoning and tool calls, then the tool results in
 * call order.
 */
export const stepMessages = (
  target: PromptTarget,
  content: ReadonlyArray<StepContent>,
  outcomes: ReadonlyMap<string, ToolOutcome>
): Promise<LanguageModelV4Prompt> => {
  const assistant: Exclude<AssistantContent, string> = []
  const results: ToolContent = []
  for (const piece of content) {
    if (piece.type !== "tool-call") {
      if (piece.type === "text" && piece.text.length === 0 && piece.providerMetadata == null) continue
      assistant.push({
        type: piece.type,
        text: piece.text,
        ...(piece.providerMetadata == null ? {} : { providerOptions: piece.providerMetadata })
      })
      continue
    }
    const { call } = piece
    const providerOptions = call.providerMetadata == null ? {} : { providerOptions: call.providerMetadata }
    assistant.push({
      type: "tool-call",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      // Unparsable arguments go back as an empty object; the error result explains them.
      input: !call.valid && typeof call.input !== "object" ? {} : call.input,
      ...(call.providerExecuted == null ? {} : { providerExecuted: call.providerExecuted }),
      ...providerOptions
    })
    const outcome = outcomes.get(call.toolCallId)
    if (outcome === undefined || call.providerExecuted === true) continue
    results.push({
      type: "tool-result",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: toModelOutput(outcome, call.runTool?.tool),
      ...(call.valid && call.client !== true ? providerOptions : {})
    })
  }
  const messages: Array<ModelMessage> = []
  if (assistant.length > 0) messages.push({ role: "assistant", content: assistant })
  if (results.length > 0) messages.push({ role: "tool", content: results })
  return toPrompt(target, undefined, messages)
}

/**
 * The results of calls approved in the conversation's last message, run
 * before the first step: one tool message after the conversation, in call
 * order, as `streamText` adds them (docs/DESIGN.md §10).
 */
export const approvedResults = (
  results: ReadonlyArray<{ readonly call: ParsedToolCall; readonly outcome: ToolOutcome }>
): Array<ModelMessage> =>
  results.length === 0 ? [] : [{
    role: "tool",
    content: results.map(({ call, outcome }) => ({
      type: "tool-result" as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: toModelOutput(outcome, call.runTool?.tool)
    }))
  }]
