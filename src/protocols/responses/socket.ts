import { Effect } from "effect"
import type { ApiKey } from "../../domain/ApiKey.ts"
import { isRecord } from "../../domain/isRecord.ts"
import { DOORS } from "../../domain/protocols.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import type { ErrorBody } from "../../http/errorResponse.ts"
import type { SocketDoor, SocketSession, SocketTurn } from "../../http/socket/socketSession.ts"
import { type StoredResponse, StoredResponses } from "../../store/StoredResponses.ts"
import { makeResponsesProtocolOver } from "./protocol.ts"
import { itemsOf } from "./stored.ts"

// The one message a client sends, and the fields of HTTP streaming it may not (the specification's `x-openresponses-disallowed`).
const CREATE = "response.create"
const COMPLETED = `{"type":"response.completed","response":`
const RESPONSE_ID = /"id":"(resp_[^"]*)"/

const invalid = (issue: string) => Effect.fail(new InvalidRequest({ issues: [issue] }))

/**
 * A message as a turn (the specification's `WebSocketResponseCreateEvent`):
 * `response.create` and a create body. `stream` may say `true` (Codex sends
 * it; every turn streams) and `stream_options` is ignored; `background` is
 * refused, as is `generate` other than a boolean.
 */
const turnOf = (message: string): Effect.Effect<SocketTurn, InvalidRequest> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(message)
  } catch (error) {
    return invalid(`the message is not JSON (${(error as Error).message}): send one response.create object a message`)
  }
  if (!isRecord(parsed)) return invalid(`the message must be a JSON object with "type": "${CREATE}"`)
  const { type, generate, stream, stream_options: _streamOptions, ...body } = parsed
  if (type !== CREATE) return invalid(`"type" must be "${CREATE}", the one message a client sends`)
  if (body.background === true) {
    return invalid(`"background" is for HTTP: a WebSocket turn streams to its connection; leave it out`)
  }
  if (stream !== undefined && stream !== null && stream !== true) {
    return invalid(`"stream" is for HTTP: every WebSocket turn streams; leave it out`)
  }
  if (generate !== undefined && typeof generate !== "boolean") return invalid(`"generate" must be a boolean`)
  return Effect.succeed({ body: { ...body, stream: true }, generate: generate !== false })
}

/** A failure before a turn's events began, as the specification's `WebSocketErrorEvent` (with `Retry-After`, Codex's `headers`). */
const errorMessage = ({ body, headers, status }: ErrorBody): string => {
  const error = body.error as { readonly type: string; readonly code: string | null }
  return JSON.stringify({
    type: "error",
    status,
    error: { ...error, code: error.code ?? error.type },
    ...(headers === undefined ? {} : { headers })
  })
}

/**
 * One connection's session (docs/DESIGN.md §14). It remembers the last
 * response a turn completed with its whole conversation, so the next turn
 * may continue it by `previous_response_id` whether or not it was stored
 * (`store: false`, as Codex asks): OpenAI's connection-local cache. Only the
 * key that made it continues it; one found nowhere is refused as over HTTP.
 */
class ResponsesSession {
  /** The last completed response, its whole conversation as its input. */
  private last: (StoredResponse & { readonly keyId: string }) | undefined = undefined
  /** The running turn's whole conversation and key, until its response completes. */
  private pending: { readonly input: string; readonly keyId: string } | undefined = undefined
  readonly session: SocketSession

  constructor(over: Effect.Success<typeof makeResponsesProtocolOver>, stored: StoredResponses["Service"]) {
    const lookup = {
      get: (id: string, keyId: string) =>
        this.last?.id === id && this.last.keyId === keyId ? Effect.succeed(this.last) : stored.get(id, keyId)
    }
    this.session = {
      protocol: over(lookup, this.continued),
      turn: turnOf,
      errorMessage,
      sent: this.sent
    }
  }

  private readonly continued = (body: unknown, key: ApiKey): void => {
    const input = isRecord(body) ? body.input : undefined
    this.pending = typeof input === "string" || Array.isArray(input)
      ? { input: JSON.stringify(itemsOf(input)), keyId: key.id }
      : undefined
  }

  private readonly sent = (data: string): void => {
    const pending = this.pending
    if (pending === undefined || !data.startsWith(COMPLETED)) return
    const response = data.slice(COMPLETED.length, data.lastIndexOf(`,"sequence_number":`))
    const id = RESPONSE_ID.exec(response)?.[1]
    this.pending = undefined
    if (id !== undefined) this.last = { id, keyId: pending.keyId, input: pending.input, response }
  }
}

/** `/v1/responses` in WebSocket mode (the specification's `x-openresponses-websocket`). */
export const makeResponsesSocket = Effect.gen(function*() {
  const over = yield* makeResponsesProtocolOver
  const stored = yield* StoredResponses
  return {
    path: DOORS.responses.paths[0],
    protocol: over(),
    session: () => new ResponsesSession(over, stored).session
  } satisfies SocketDoor
})
