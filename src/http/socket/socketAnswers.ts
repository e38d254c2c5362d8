import { Effect } from "effect"
import type { RunSummary } from "../../agent/RunSummary.ts"
import type { Answering, ChatProtocol } from "../chatProtocol.ts"
import type { OpenStream, RequestFacts } from "../chatRun.ts"
import type { SocketConnection } from "./SocketConnection.ts"
import { SocketWriter } from "./SocketWriter.ts"

/** A turn's stream: its events as messages on the connection, each seen by its session. */
export const openSocket: OpenStream<SocketConnection> = (connection, _headers, encoding, facts) =>
  new SocketWriter(connection.channel, encoding, facts.writeFailed, connection.session.sent)

// What a turn that called nothing used.
const NOTHING: RunSummary = { finished: true, finishReason: "stop", usage: {} }

/**
 * A turn that generates nothing (OpenAI's `generate: false`, which Codex
 * sends to prepare a connection): its response opens and completes empty,
 * kept as any is when asked, without a model call, so without an admission.
 * Its next turn can continue it (`previous_response_id`).
 */
export const warmTurn = <Wire>(
  protocol: ChatProtocol<Wire>,
  connection: SocketConnection,
  answering: Answering<Wire>,
  facts: RequestFacts
): Effect.Effect<void> => {
  const encoding = protocol.stream(answering)
  const sse = facts.sse = openSocket(connection, {}, encoding, facts)
  sse.emit({ type: "start", messageId: answering.correlationId })
  sse.emit({ type: "finish", finishReason: "stop", summary: NOTHING })
  facts.summary = NOTHING
  const whole = encoding.whole?.()
  const kept = whole === undefined ? undefined : protocol.keep?.(answering, whole)
  return Effect.andThen(kept ?? Effect.void, Effect.sync(() => sse.end()))
}
