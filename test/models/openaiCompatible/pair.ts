import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { APICallError, type LanguageModelV4, type LanguageModelV4CallOptions } from "@ai-sdk/provider"
import type { FetchFunction } from "@ai-sdk/provider-utils"
import { startUpstream } from "../../../src/demo/upstream/server.ts"
import type { Reply, Upstream } from "../../../src/demo/upstream/types.ts"
import { OpenAICompatibleChatModel } from "../../../src/models/openaiCompatible/OpenAICompatibleChatModel.ts"

export const API_KEY = "sk-parley-oracle-0123456789abcdef"

/**
 * The AI SDK's model and parley's, each against its own scripted upstream
 * with the same script: ids, tool-call ids and recorded requests line up.
 */
export interface Pair {
  readonly sdk: LanguageModelV4
  readonly mine: OpenAICompatibleChatModel
  readonly sdkUpstream: Upstream
  readonly myUpstream: Upstream
  enqueue(...replies: Array<Reply>): void
  close(): Promise<void>
}

export interface PairOptions {
  /** The fetch the SDK model uses: parley's `nodeFetch`, or the global fetch when undefined. */
  readonly fetch?: FetchFunction | undefined
  readonly provider?: string
  readonly modelId?: string
}

export const startPair = async (options: PairOptions = {}): Promise<Pair> => {
  const [sdkUpstream, myUpstream] = await Promise.all([
    startUpstream({ apiKey: API_KEY }),
    startUpstream({ apiKey: API_KEY })
  ])
  const provider = options.provider ?? "local"
  const modelId = options.modelId ?? "demo"
  const sdk = createOpenAICompatible({
    name: provider,
    baseURL: sdkUpstream.url,
    includeUsage: true,
    apiKey: API_KEY,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch })
  }).chatModel(modelId)
  const mine = new OpenAICompatibleChatModel({ provider, baseURL: myUpstream.url, apiKey: API_KEY, modelId })
  return {
    sdk,
    mine,
    sdkUpstream,
    myUpstream,
    enqueue: (...replies) => {
      sdkUpstream.enqueue(...replies)
      myUpstream.enqueue(...replies)
    },
    close: async () => {
      await Promise.all([sdkUpstream.close(), myUpstream.close()])
    }
  }
}

export const userPrompt = (text: string): LanguageModelV4CallOptions["prompt"] => [
  { role: "system", content: "You are a test assistant." },
  { role: "user", content: [{ type: "text", text }] }
]

/**
 * An error as far as callers can tell: kind, message, status, retryability,
 * the response and the request, and its causes `causeDepth` deep.
 */
export const errorView = (error: unknown, causeDepth = Infinity): unknown => {
  const cause = (inner: unknown) => causeDepth > 0 ? errorView(inner, causeDepth - 1) : "<cause>"
  if (APICallError.isInstance(error)) {
    return {
      name: error.name,
      message: error.message,
      statusCode: error.statusCode,
      isRetryable: error.isRetryable,
      url: error.url,
      responseBody: error.responseBody,
      responseHeaders: error.responseHeaders,
      requestBodyValues: error.requestBodyValues,
      data: error.data,
      cause: cause(error.cause)
    }
  }
  if (error instanceof Error) {
    const { name, message } = error
    const code = (error as { code?: unknown }).code
    return { name, message, ...(code === undefined ? {} : { code }), cause: cause(error.cause) }
  }
  return error
}

/**
 * What differs between two runs by nature, not by implementation, made
 * equal: the upstream's address, clock (`created`, the Date it becomes, the
 * `date` header); errors as their views, their causes `causeDepth` deep (the
 * network errors under a fetch are that fetch's own).
 */
export const comparable = (value: unknown, upstreams: ReadonlyArray<Upstream>, causeDepth = Infinity): unknown => {
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (value instanceof Date) return "<date>"
    if (value instanceof Error) return walk(errorView(value, causeDepth), key)
    if (typeof value === "string") {
      return upstreams.reduce((text, upstream) => text.replaceAll(upstream.url, "<upstream>"), value)
    }
    if (typeof value === "number" && key === "created") return "<created>"
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined))
    if (typeof value === "object" && value !== null) {
      const out: Record<string, unknown> = {}
      for (const [name, item] of Object.entries(value)) {
        if (name === "date" && typeof item === "string") out[name] = "<date>"
        else out[name] = walk(item, name)
      }
      return out
    }
    return value
  }
  return walk(value, undefined)
}

/** A doStream call run to its end: its parts, or where and how it failed. */
export interface StreamOutcome {
  readonly parts: Array<unknown>
  readonly request?: unknown
  readonly response?: unknown
  readonly rejected?: unknown
  readonly streamError?: unknown
}

export const streamOutcome = async (
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions
): Promise<StreamOutcome> => {
  let result
  try {
    result = await model.doStream(options)
  } catch (error) {
    return { parts: [], rejected: error }
  }
  const parts: Array<unknown> = []
  try {
    for await (const part of result.stream) parts.push(part)
  } catch (error) {
    return { parts, request: result.request, response: result.response, streamError: error }
  }
  return { parts, request: result.request, response: result.response }
}

export type GenerateOutcome = { readonly result: unknown } | { readonly rejected: unknown }

export const generateOutcome = async (
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions
): Promise<GenerateOutcome> => {
  try {
    return { result: await model.doGenerate(options) }
  } catch (error) {
    return { rejected: error }
  }
}
