import type { UIMessage, UIMessageChunk } from "ai"
import { Effect, Pull, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { collectMessage } from "../agent/collectMessage.ts"
import type { UpstreamError } from "../agent/UpstreamError.ts"
import { DONE, encodeChunk, encodeFailure, sseHeaders } from "./sse.ts"
import { upstreamFailure } from "./upstreamFailure.ts"

const encoder = new TextEncoder()

/**
 * Streams the agent's chunks as SSE. The first chunks are awaited before the
 * response starts, so a failing first model call is still a normal HTTP error
 * (rule 12); a failure after that ends the stream with an error chunk.
 */
export const streamResponse = (chunks: Stream.Stream<UIMessageChunk, UpstreamError>, headers: Record<string, string>) =>
  Effect.gen(function*() {
    const pull = yield* Stream.toPull(chunks)
    const first = yield* pull.pipe(
      Pull.catchDone(() => Effect.succeed([] as ReadonlyArray<UIMessageChunk>)),
      Effect.mapError(upstreamFailure)
    )
    // Chunks arrive in batches; one write per batch keeps syscalls and allocations low.
    const encodeBatch = (batch: ReadonlyArray<UIMessageChunk>) => {
      let text = ""
      for (const chunk of batch) text += encodeChunk(chunk)
      return encoder.encode(text)
    }
    const rest = Stream.fromPull(Effect.succeed(pull)).pipe(
      Stream.mapArray((batch) => [encodeBatch(batch)] as const),
      Stream.concat(Stream.succeed(encoder.encode(DONE))),
      Stream.catch((error) => Stream.succeed(encoder.encode(encodeFailure(upstreamFailure(error).message))))
    )
    const body = first.length === 0 ? rest : Stream.concat(Stream.succeed(encodeBatch(first)), rest)
    return HttpServerResponse.stream(body, {
      contentType: "text/event-stream",
      headers: { ...sseHeaders, ...headers }
    })
  })

/** Runs the agent to the end and answers one ChatResponse body. */
export const jsonResponse = (
  run: Effect.Effect<ReadonlyArray<UIMessageChunk>, UpstreamError>,
  input: ReadonlyArray<UIMessage>,
  tools: { readonly used: ReadonlyArray<string>; readonly skipped: ReadonlyArray<string> },
  headers: Record<string, string>
) =>
  Effect.gen(function*() {
    const all = yield* Effect.mapError(run, upstreamFailure)
    const { message, summary } = collectMessage(all)
    const data: Record<string, unknown> = {
      messages: [...input, message],
      usage: summary.usage,
      tools,
      finished: summary.finished
    }
    if (summary.finishReason !== undefined) data.finishReason = summary.finishReason
    return HttpServerResponse.jsonUnsafe({ success: true, data }, { headers })
  })
