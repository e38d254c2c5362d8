import { Effect } from "effect"
import type { ApiKey } from "../../domain/ApiKey.ts"
import { parseJsonBody } from "../../domain/ChatRequest.ts"
import { isRecord } from "../../domain/isRecord.ts"
import { DOORS } from "../../domain/protocols.ts"
import { InvalidRequest, type MalformedJson } from "../../domain/requestErrors.ts"
import type { ErrorBody } from "../../http/errorResponse.ts"
import type { SocketDoor, SocketSession, SocketTurn } from "../../http/socket/socketSession.ts"
import { StoredResponses } from "../../store/StoredResponses.ts"
import { makeResponsesProtocolOver } from "./protocol.ts"
import { itemsOf, type RememberedResponse } from "./stored.ts"

// The one message a client sends, and the fields of HTTP streaming it may not (the specification's `x-openresponses-disallowed`).
const CREATE = "response.create"
const COMPLETED = `{"type":"response.completed","response":`
const RESPONSE_ID = /"id":"(resp_[^"]*)"/

const invalid = (issue: string) => Effect.fail(new InvalidRequest({ issues: [issue] }))

/**
 * A message as a turn (the specification's `WebSocketResponseCreateEvent`):
 * `response.create` and a create body, parsed as an HTTP body is (malformed
 * JSON, or nested too deep, is refused before anything reads it). `stream` may say `true` (Codex sends
 * it; every turn streams) and `stream_options` is ignored; `background` is
 * refused, as is `generate` other than a boolean.
 */
const turnOf = (message: string): Effect.Effect<SocketTurn, InvalidRequest | MalformedJson> =>
  Effect.flatMap(parseJsonBody(message), (parsed) => {
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
  })

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

/** The connection's last completed response; its input's text is made only if something asks for it. */
class Remembered implements RememberedResponse {
  readonly id: string
  readonly keyId: string
  readonly items: ReadonlyArray<unknown>
  readonly bytes: number
  readonly response: string

  constructor(id: string, pending: Pending, response: string) {
    this.id = id
    this.keyId = pending.keyId
    this.items = pending.items
    this.bytes = pending.bytes
    this.response = response
  }

  get input(): string {
    return JSON.stringify(this.items)
  }
}

/** A running turn's whole conversation, its key's, and about how large it is. */
interface Pending {
  readonly items: ReadonlyArray<unknown>
  readonly keyId: string
  readonly bytes: number
}

/**
 * One connection's session (docs/DESIGN.md §14). It remembers the last
 * response a turn completed with its whole conversation, so the next turn
 * may continue it by `previous_response_id` whether or not it was stored
 * (`store: false`, as Codex asks): OpenAI's connection-local cache. It keeps
 * the conversation as the turn decoded it, so a continuation parses only its
 * new items, where over HTTP Codex sends the whole conversation each turn.
 * Only the key that made it continues it; one found nowhere is refused as
 * over HTTP.
 */
class ResponsesSession {
  private last: Remembered | undefined = undefined
  private pending: Pending | undefined = undefined
  /** The running turn's conversation so far, in bytes: its message, and what it continues (the body limit's). */
  private bytes = 0
  readonly session: SocketSession

  constructor(over: Effect.Success<typeof makeResponsesProtocolOver>, stored: StoredResponses["Service"]) {
    const lookup = {
      get: (id: string, keyId: string) => {
        const last = this.last
        if (last?.id === id && last.keyId === keyId) {
          this.bytes += last.bytes + Buffer.byteLength(last.response)
          return Effect.succeed(last)
        }
        return Effect.map(stored.get(id, keyId), (found) => {
          if (found !== undefined) this.bytes += Buffer.byteLength(found.input) + Buffer.byteLength(found.response)
          return found
        })
      }
    }
    this.session = {
      protocol: over(lookup, this.continued),
      turn: this.turn,
      errorMessage,
      sent: this.sent
    }
  }

  private readonly turn = (message: string): Effect.Effect<SocketTurn, InvalidRequest | MalformedJson> => {
    this.bytes = Buffer.byteLength(message)
    return turnOf(message)
  }

  private readonly continued = (body: unknown, key: ApiKey): void => {
    const input = isRecord(body) ? body.input : undefined
    this.pending = typeof input === "string" || Array.isArray(input)
      ? { items: itemsOf(input), keyId: key.id, bytes: this.bytes }
      : undefined
  }

  private readonly sent = (data: string): void => {
    const pending = this.pending
    if (pending === undefined || !data.startsWith(COMPLETED)) return
    const response = data.slice(COMPLETED.length, data.lastIndexOf(`,"sequence_number":`))
    const id = RESPONSE_ID.exec(response)?.[1]
    this.pending = undefined
    if (id !== undefined) this.last = new Remembered(id, pending, response)
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
