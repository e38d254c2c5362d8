/** Token counts a scripted reply reports; rendered as OpenAI's `usage` object. */
export interface UsageIn {
  readonly promptTokens: number
  readonly completionTokens: number
  readonly cachedTokens: number
  readonly reasoningTokens: number
}

export interface ToolCallReply {
  readonly id?: string
  readonly name: string
  /** A string is sent verbatim (so a test can send malformed JSON); anything else is JSON-encoded. */
  readonly arguments: unknown
}

interface Timing {
  /** Wait this long before responding at all. */
  readonly delayMs?: number
  /** Wait this long between stream chunks (0 or absent: the whole stream in one write). */
  readonly chunkDelayMs?: number
}

export type Reply =
  & Timing
  & (
    | {
      readonly type: "text"
      readonly text: string
      /** Split into this many deltas; absent: one delta per word. */
      readonly chunks?: number
      readonly finishReason?: "stop" | "length"
      readonly usage?: Partial<UsageIn>
      /** Thinking before the text: `reasoning_content` deltas (one per word) when streaming, else on the message. */
      readonly reasoning?: string
    }
    | {
      readonly type: "tool-calls"
      readonly calls: ReadonlyArray<ToolCallReply>
      readonly text?: string
      readonly usage?: Partial<UsageIn>
    }
    | { readonly type: "error"; readonly status: number; readonly body?: unknown; readonly retryAfter?: number }
    /** Stream `afterChunks` text deltas, then destroy the socket. */
    | { readonly type: "broken"; readonly afterChunks: number }
    /**
     * A long streamed answer: `count` text deltas of `delta`, each written once
     * the last was taken, as a server that honours backpressure writes (the
     * whole stream is never in memory). `progress` says how far it got.
     */
    | { readonly type: "long"; readonly delta: string; readonly count: number; readonly progress?: LongProgress }
    /** Headers sent (when streaming), then nothing until the client goes away. */
    | { readonly type: "hang" }
    /**
     * Exactly these bytes, for what the other replies cannot say (odd chunks,
     * line endings, bodies): status 200 and an SSE (streaming) or JSON content
     * type unless given; each piece of an array in its own write.
     */
    | {
      readonly type: "raw"
      readonly body: string | ReadonlyArray<string | Uint8Array>
      readonly status?: number
      readonly headers?: Record<string, string>
      /** Destroy the socket after the last piece instead of ending the response: a connection that drops. */
      readonly cut?: boolean
    }
  )

/** How far a `long` reply got: deltas written, and whether it waits for the client to take them. */
export interface LongProgress {
  written: number
  waiting: boolean
}

export interface RecordedRequest {
  readonly body: any
  readonly headers: Record<string, string | Array<string> | undefined>
  /** Set to true when the client closed before the response ended. */
  aborted: boolean
}

export interface Upstream {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly url: string
  readonly requests: ReadonlyArray<RecordedRequest>
  /** Replies consumed one per chat request, first in first out. */
  enqueue(...replies: Array<Reply>): void
  /** Answers chat requests while the queue is empty (instead of the demo behaviour). */
  respondWith(fn: (body: any) => Reply): void
  /** Resolves with the next request the client aborted (one already aborted counts); rejects after the timeout. */
  waitForAbort(timeoutMs?: number): Promise<RecordedRequest>
  close(): Promise<void>
}

export interface UpstreamOptions {
  readonly port?: number
  readonly host?: string
  /** When set, every request needs `Authorization: Bearer <apiKey>`, else 401. */
  readonly apiKey?: string
  /** Ids listed by `GET /v1/models` (default `["demo"]`). */
  readonly models?: ReadonlyArray<string>
  /** `false` keeps `requests` empty, so long benchmarks do not hold every body in memory (aborts are still reported). */
  readonly recordRequests?: boolean
}
