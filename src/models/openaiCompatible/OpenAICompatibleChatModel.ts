import { OpenAICompatibleChatLanguageModel } from "@ai-sdk/openai-compatible"
import {
  APICallError,
  EmptyResponseBodyError,
  JSONParseError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4StreamPart,
  type LanguageModelV4StreamResult,
  TypeValidationError
} from "@ai-sdk/provider"
import { secureJsonParse, withoutTrailingSlash } from "@ai-sdk/provider-utils"
import { type Exchange, headersOf, readBody, send } from "../../net/httpClient.ts"
import type { ResponseTimeouts } from "../../net/responseTimeouts.ts"
import { type AnswerShape, openPartStream, type PartStream, type PartStreaming } from "../PartStreaming.ts"
import { type CallInfo, hideKey, readFailure, type ResponseInfo, statusError, toCallError } from "./apiErrors.ts"
import type { ChunkSchema } from "./chunkShape.ts"
import { ResponsePartStream } from "./PartStream.ts"
import {
  metadataKeyFor,
  optionNamespaces,
  type PreparedRequest,
  requestArgs,
  setsProviderOptions
} from "./requestBody.ts"
import { RequestHeaders } from "./RequestHeaders.ts"

export interface OpenAICompatibleChatSettings {
  /** Provider id from config, e.g. "local"; `model.provider` is `${provider}.chat`, as the AI SDK names it. */
  readonly provider: string
  /** e.g. http://127.0.0.1:9100/v1; calls POST `${baseURL}/chat/completions`. */
  readonly baseURL: string
  /** Sent as `Authorization: Bearer`; never in an error. */
  readonly apiKey?: string
  readonly modelId: string
  /** A provider silent past these fails the call as unreachable (retryable). */
  readonly timeouts?: ResponseTimeouts | undefined
  /** How long a whole (non-streamed) answer may take to arrive; absent: `timeouts.firstByteMs`. */
  readonly wholeAnswerMs?: number | undefined
}

const BODY_FAILURE = "Failed to process successful response"
const ERROR_BODY_FAILURE = "Failed to process error response"
// Statuses whose fetch Response has no body (among the 2xx the SDK reads).
const NO_BODY = new Set([204, 205])
const decoder = new TextDecoder()

interface Sent {
  readonly exchange: Exchange
  readonly response: ResponseInfo
  readonly call: CallInfo
  readonly json: string
}

// The SDK model's own zod chunk schema (a private field): chunks the hand check does not take get its verdict and error.
const chunkSchemaOf = (model: OpenAICompatibleChatLanguageModel): ChunkSchema => {
  const schema = (model as unknown as { readonly chunkSchema?: Partial<ChunkSchema> }).chunkSchema
  if (typeof schema?.safeParse !== "function") {
    throw new Error("@ai-sdk/openai-compatible no longer keeps its chunk schema in `chunkSchema`")
  }
  return schema as ChunkSchema
}

/**
 * The AI SDK's openai-compatible chat model (as parley configures it: usage
 * included, no structured outputs), reimplemented where it costs: requests
 * go out over `node:http` and a streamed answer is read straight off the
 * response (see `PartStream`), with the same parts, results and errors.
 * The SDK's own model is kept for what is rare: building a request that
 * sets this provider's options, converting a non-streamed answer, and the
 * verdict on odd chunks.
 */
export class OpenAICompatibleChatModel implements LanguageModelV4, PartStreaming {
  readonly specificationVersion = "v4"
  readonly provider: string
  readonly modelId: string
  readonly supportedUrls: Record<string, Array<RegExp>> = {}
  private readonly providerName: string
  private readonly namespaces: ReadonlyArray<string>
  private readonly url: URL
  private readonly urlText: string
  private readonly apiKey: string | undefined
  private readonly timeouts: ResponseTimeouts | undefined
  private readonly wholeTimeouts: ResponseTimeouts | undefined
  private readonly headers: RequestHeaders
  private readonly sdkModel: OpenAICompatibleChatLanguageModel
  private readonly chunkSchema: ChunkSchema

  constructor(settings: OpenAICompatibleChatSettings) {
    this.provider = `${settings.provider}.chat`
    this.modelId = settings.modelId
    this.providerName = this.provider.split(".")[0]!.trim()
    this.namespaces = optionNamespaces(this.providerName)
    this.url = new URL(`${withoutTrailingSlash(settings.baseURL)}/chat/completions`)
    this.apiKey = settings.apiKey
    this.timeouts = settings.timeouts
    this.wholeTimeouts = settings.wholeAnswerMs === undefined
      ? settings.timeouts
      : { ...settings.timeouts, firstByteMs: settings.wholeAnswerMs }
    this.urlText = this.url.toString()
    this.headers = new RequestHeaders(settings.apiKey)
    this.sdkModel = new OpenAICompatibleChatLanguageModel(settings.modelId, {
      provider: this.provider,
      url: () => this.urlText,
      includeUsage: true
    })
    this.chunkSchema = chunkSchemaOf(this.sdkModel)
  }

  async openStream(options: LanguageModelV4CallOptions, shape: AnswerShape = "streamed"): Promise<PartStream> {
    const prepared = await this.prepare(options)
    const whole = shape === "whole"
    const body = whole ? prepared.args : { ...prepared.args, stream: true, stream_options: { include_usage: true } }
    const { exchange, response, call } = await this.send(body, options, whole ? this.wholeTimeouts : this.timeouts)
    if (NO_BODY.has(response.statusCode)) {
      exchange.response.resume()
      throw readFailure(BODY_FAILURE, new EmptyResponseBodyError({}), response, call)
    }
    return new ResponsePartStream(exchange, call, response.headers, options.abortSignal, {
      warnings: prepared.warnings,
      metadataKey: prepared.metadataKey,
      includeRawChunks: options.includeRawChunks === true,
      chunkSchema: this.chunkSchema
    }, shape)
  }

  [openPartStream](options: LanguageModelV4CallOptions, shape: AnswerShape): Promise<PartStream> {
    return this.openStream(options, shape)
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const parts = await this.openStream(options)
    // Parts are queued, not pulled: an answer is small, and reading it at network speed frees the socket soonest.
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        parts.read((part) => controller.enqueue(part)).then(
          () => controller.close(),
          (error) => controller.error(error)
        )
      },
      cancel(reason) {
        parts.cancel(reason)
      }
    })
    return { stream, request: parts.request, response: parts.response }
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const prepared = await this.prepare(options)
    const { exchange, response, call, json } = await this.send(prepared.args, options, this.wholeTimeouts)
    let text: string
    try {
      text = decoder.decode(await readBody(exchange, options.abortSignal))
    } catch (error) {
      throw readFailure(BODY_FAILURE, error, response, call)
    }
    const invalid = (cause: unknown) =>
      toCallError(
        new APICallError({
          message: "Invalid JSON response",
          cause,
          statusCode: response.statusCode,
          responseHeaders: response.headers,
          responseBody: hideKey(text, this.apiKey),
          url: call.url,
          requestBodyValues: call.requestBodyValues
        }),
        call
      )
    let raw: unknown
    try {
      raw = secureJsonParse(text)
    } catch (cause) {
      throw invalid(new JSONParseError({ text, cause }))
    }
    let result: LanguageModelV4GenerateResult
    try {
      const providerOptions = options.providerOptions
      result = await this.sdkModel.convertResponse({
        body: raw,
        ...(providerOptions === undefined ? {} : { providerOptions })
      })
    } catch (error) {
      throw TypeValidationError.isInstance(error) ? invalid(error) : error
    }
    return {
      ...result,
      request: { body: json },
      response: { ...result.response, headers: response.headers, body: raw },
      warnings: prepared.warnings
    }
  }

  private prepare(options: LanguageModelV4CallOptions): PreparedRequest | Promise<PreparedRequest> {
    if (!setsProviderOptions(this.namespaces, options.providerOptions)) {
      return requestArgs(this.modelId, this.providerName, options)
    }
    // Validating, merging and warning about the provider's own options is the SDK's business.
    return this.sdkModel.prepareRequest(options).then(({ body, warnings }) => ({
      args: body,
      warnings,
      metadataKey: metadataKeyFor(this.providerName, options.providerOptions)
    }))
  }

  /** POSTs `body`; resolves with a 2xx response's headers arrived, else fails as the SDK's `postJsonToApi`. */
  private async send(
    body: Record<string, unknown>,
    options: LanguageModelV4CallOptions,
    timeouts: ResponseTimeouts | undefined
  ): Promise<Sent> {
    const call: CallInfo = { url: this.urlText, requestBodyValues: body }
    const json = JSON.stringify(body)
    const signal = options.abortSignal
    let exchange: Exchange
    try {
      exchange = await send(this.url, {
        method: "POST",
        headers: this.headers.for(options.headers, json),
        body: json,
        signal,
        timeouts
      })
    } catch (error) {
      throw toCallError(error, call)
    }
    const statusCode = exchange.response.statusCode ?? 500
    const response: ResponseInfo = { statusCode, headers: headersOf(exchange.response) }
    if (statusCode >= 200 && statusCode <= 299) return { exchange, response, call, json }
    let text: string
    try {
      text = decoder.decode(await readBody(exchange, signal))
    } catch (error) {
      throw readFailure(ERROR_BODY_FAILURE, error, response, call)
    }
    throw statusError({ ...response, statusText: exchange.response.statusMessage ?? "" }, text, call, this.apiKey)
  }
}
