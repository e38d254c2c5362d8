import type { LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { abortReason } from "../../net/httpAgents.ts"
import type { Exchange } from "../../net/httpClient.ts"
import type { AnswerShape, PartStream } from "../PartStreaming.ts"
import { type CallInfo, readFailure, type ResponseInfo } from "./apiErrors.ts"
import { SseDataSplitter } from "./sseData.ts"
import { StreamParts, type StreamPartsOptions } from "./StreamParts.ts"

const BODY_FAILURE = "Failed to process successful response"

interface Failure {
  readonly error: unknown
}

/** Takes a response's Buffers as they arrive; `end`, if any, once the last has. */
interface BodyReader {
  push(chunk: Buffer): void
  end?(): void
}

// A non-streamed answer's body: kept until it is all there, then read as one chunk.
class WholeBody {
  private readonly onText: (text: string) => void
  private readonly received: Array<Buffer> = []

  constructor(onText: (text: string) => void) {
    this.onText = onText
  }

  push(chunk: Buffer): void {
    this.received.push(chunk)
  }

  end(): void {
    this.onText(decoder.decode(Buffer.concat(this.received)))
  }
}

const decoder = new TextDecoder()

const noop = (): void => undefined

/**
 * Reads the body of one response straight off the `node:http` message,
 * synchronously in the `data` handler, with no web stream and no promise
 * per hop: a stream's Buffers → event data → JSON → parts as they arrive,
 * a whole answer's parts at once when its last byte has.
 */
export class ResponsePartStream implements PartStream {
  readonly request: { readonly body: unknown }
  readonly response: { readonly headers: Record<string, string> }
  private readonly exchange: Exchange
  private readonly call: CallInfo
  private readonly responseInfo: ResponseInfo
  private readonly signal: AbortSignal | undefined
  private readonly options: StreamPartsOptions
  private readonly shape: AnswerShape
  private state: "idle" | "reading" | "done" = "idle"
  /** Why the call ended before anyone read it. */
  private failure: Failure | undefined = undefined
  // The pending read's promise. Its resolvers, not a closure over them: a closure assigned to a property keeps
  // its request past two scavenges (docs/DESIGN.md §12).
  private resolve: () => void = noop
  private reject: (error: unknown) => void = noop

  constructor(
    exchange: Exchange,
    call: CallInfo,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
    options: StreamPartsOptions,
    shape: AnswerShape
  ) {
    this.request = { body: call.requestBodyValues }
    this.response = { headers }
    this.exchange = exchange
    this.call = call
    this.responseInfo = { statusCode: exchange.response.statusCode ?? 200, headers }
    this.signal = signal
    this.options = options
    this.shape = shape
    exchange.response.on("error", this.onError)
    if (signal?.aborted === true) this.onAbort()
    else signal?.addEventListener("abort", this.onAbort, { once: true })
  }

  read(onPart: (part: LanguageModelV4StreamPart) => void): Promise<void> {
    if (this.state !== "idle") return Promise.reject(new Error("PartStream.read may be called once"))
    if (this.failure !== undefined) {
      this.state = "done"
      return Promise.reject(this.failure.error)
    }
    this.state = "reading"
    return new Promise<void>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
      const parts = new StreamParts(onPart, this.options)
      const body: BodyReader = this.shape === "whole"
        ? new WholeBody((text) => parts.whole(text))
        : new SseDataSplitter((data) => parts.data(data))
      const response = this.exchange.response
      try {
        parts.start()
      } catch (error) {
        return this.fail({ error })
      }
      response.on("data", (chunk: Buffer) => {
        try {
          body.push(chunk)
        } catch (error) {
          this.fail({ error })
        }
      })
      response.once("end", () => {
        if (this.state !== "reading") return
        try {
          body.end?.()
          parts.flush()
        } catch (error) {
          return this.fail({ error })
        }
        this.settle(undefined)
      })
    })
  }

  pause(): void {
    this.exchange.response.pause()
  }

  resume(): void {
    this.exchange.response.resume()
  }

  cancel(reason?: unknown): void {
    this.fail({ error: reason })
  }

  /** Ends the pending read: resolved when the answer ended, else rejected with the failure. */
  private settle(failure: Failure | undefined): void {
    this.state = "done"
    this.signal?.removeEventListener("abort", this.onAbort)
    if (failure === undefined) return this.resolve()
    if (!this.exchange.response.complete) this.exchange.request.destroy()
    this.reject(failure.error)
  }

  /** Ends the call: rejects the pending read, or keeps the failure for the next one. */
  private fail(failure: Failure): void {
    if (this.state === "reading") return this.settle(failure)
    if (this.state === "done" || this.failure !== undefined) return
    this.failure = failure
    this.signal?.removeEventListener("abort", this.onAbort)
    if (!this.exchange.response.complete) this.exchange.request.destroy()
  }

  // As the SDK's body stream fails: an abort with the signal's reason, a cut connection as "terminated".
  private readonly onAbort = (): void => {
    this.fail({ error: readFailure(BODY_FAILURE, abortReason(this.signal!), this.responseInfo, this.call) })
  }

  private readonly onError = (cause: Error): void => {
    this.fail({
      error: readFailure(BODY_FAILURE, new TypeError("terminated", { cause }), this.responseInfo, this.call)
    })
  }
}
