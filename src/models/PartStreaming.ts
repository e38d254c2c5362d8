import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider"

/** A model call whose response headers arrived. */
export interface PartStream {
  readonly request: { readonly body: unknown }
  readonly response: { readonly headers: Record<string, string> }
  /**
   * Delivers every part synchronously as each network chunk is parsed (a
   * whole answer's all at once, after its last byte), in the same order
   * doStream's stream would; resolves after the last part; rejects
   * when the connection breaks mid-stream (the same error doStream's stream
   * would error with) or on abort (options.abortSignal). If onPart throws, the
   * request is destroyed and the promise rejects with what onPart threw. Call
   * at most once.
   */
  read(onPart: (part: LanguageModelV4StreamPart) => void): Promise<void>
  /**
   * Stops taking parts off the network until `resume`: the connection's
   * buffers fill and the provider's writes wait, as a reader that cannot
   * keep up needs (the client of a streamed answer reading slowly).
   */
  pause(): void
  resume(): void
  /** Gives the call up: destroys the request; `read` (pending or later) rejects with `reason`. */
  cancel(reason?: unknown): void
}

/**
 * How the model is asked for its answer: streamed, or whole (the provider
 * sends it in one piece, and its parts come at once when it has arrived).
 * A client that takes its answer in one piece gains nothing from a stream,
 * and the provider and the gateway both do less for a whole answer.
 */
export type AnswerShape = "streamed" | "whole"

export const openPartStream: unique symbol = Symbol.for("parley/models/openPartStream")

/**
 * What a model can do beyond `LanguageModelV4`: hand over the parts of each
 * network read at once, with no web stream and no promise per part (the
 * agent's fast path, BENCHMARKS.md). The agent asks for this capability,
 * not for a provider's class.
 */
export interface PartStreaming {
  readonly [openPartStream]: (options: LanguageModelV4CallOptions, shape: AnswerShape) => Promise<PartStream>
}

export const streamsParts = (model: LanguageModelV4): model is LanguageModelV4 & PartStreaming =>
  typeof (model as Partial<PartStreaming>)[openPartStream] === "function"
