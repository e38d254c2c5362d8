import type { Effect } from "effect"
import type { CollectedRun } from "../agent/Agent.ts"
import type { RunPlan } from "../chat/chatPlan.ts"
import type { InternalChatRequest } from "../chat/chatRequest.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { ChatProtocolName } from "../domain/protocols.ts"
import type { InvalidRequest } from "../domain/requestErrors.ts"
import type { McpServerUnavailable } from "../mcp/mcpErrors.ts"
import type { ItemNotFound, PreviousResponseNotFound } from "../store/responseErrors.ts"
import type { StreamEncoding } from "./EncodedStream.ts"
import type { ErrorBody } from "./errorResponse.ts"
import type { ApiFailure } from "./errorTable.ts"
import type { KeptReplay } from "./KeptReplays.ts"
import type { BodyTooLarge } from "./requestErrors.ts"

/** A body as a protocol decoded it: the internal request, and what only its own answer needs (`Wire`). */
export interface Decoded<Wire> {
  readonly request: InternalChatRequest
  readonly wire: Wire
}

/** What a protocol words its answer from: the plan, its own decoded options, and the request's correlation id. */
export interface Answering<Wire> {
  readonly plan: RunPlan
  readonly wire: Wire
  readonly correlationId: string
}

/**
 * One wire format of the chat routes (docs/DESIGN.md §14): what `src/protocols/<name>/`
 * gives the route. The route does the rest, the same for every protocol.
 */
export interface ChatProtocol<Wire = unknown> {
  /** Its contract name (`ui`, `chat-completions`…): the ledger's `protocol` column says it. */
  readonly name: ChatProtocolName
  /** The key may come in `x-api-key` too (Anthropic's clients send it there), not only `Authorization: Bearer`. */
  readonly apiKeyHeader?: boolean | undefined
  /** Headers of each answer beside the correlation id's (Anthropic's SDKs read the id from `request-id`). */
  readonly answerHeaders?: ((correlationId: string) => Readonly<Record<string, string>>) | undefined
  /**
   * The model the body names, read before `decode` and whether or not it decodes: the ledger row of a
   * request refused for its body still says which model it asked for. Undefined: it names none.
   */
  readonly namedModel: (body: unknown) => string | undefined
  /**
   * The body, parsed, as the internal request (never seen raw by the planner). The key is the
   * authenticated caller's: hosted MCP tools (`protocols/hostedTools.ts`) are what it may use, and
   * a conversation it continues (a stored response, `previous_response_id`) is what it stored.
   */
  readonly decode: (
    body: unknown,
    key: ApiKey
  ) => Effect.Effect<
    Decoded<Wire>,
    InvalidRequest | McpServerUnavailable | PreviousResponseNotFound | ItemNotFound | BodyTooLarge
  >
  /**
   * Its stream carries `reset-step` (AI SDK 7's UI stream alone), so a route
   * retries a step that broke off mid-answer on its next target; in the
   * others a stream fails over only before the step's first byte (docs/DESIGN.md §15).
   */
  readonly resetsStep?: boolean | undefined
  /**
   * The id under which the run's stream is kept and the run goes on when its client leaves
   * (docs/DESIGN.md §16); undefined (or absent): the run ends with its client, and nothing is kept.
   */
  readonly keptId?: ((wire: Wire) => string | undefined) | undefined
  /**
   * A replay of a kept run of this door, for one reader (its stream's headers, the ending of one cut); a door
   * that keeps runs gives it.
   */
  readonly replay?: (() => KeptReplay) | undefined
  /**
   * A kept run answered before it runs (the Responses door's background responses, docs/DESIGN.md §16):
   * the answer is kept (`keep`) as the run starts, and written at once when `detached` (its client does
   * not follow the stream); undefined: the run is answered as it goes.
   */
  readonly accepted?:
    | ((answering: Answering<Wire>) => { readonly answer: unknown; readonly detached: boolean } | undefined)
    | undefined
  /** How one answer is streamed: a protocol whose chunks number or name the answer keeps that per stream. */
  readonly stream: (answering: Answering<Wire>) => StreamEncoding
  /** The whole answer of a run sent in one piece: the protocol's fold over its chunks. */
  readonly collect: (run: CollectedRun, answering: Answering<Wire>) => unknown
  /**
   * What the protocol keeps of an answer (the Responses door's stored responses), given the whole
   * answer (`collect`'s, or the stream's `whole`) once the run ended and before the answer's last
   * bytes leave, so that a client that read the answer finds it kept. `undefined`: nothing kept.
   */
  readonly keep?: ((answering: Answering<Wire>, answer: unknown) => Effect.Effect<void> | undefined) | undefined
  /**
   * A failure before the answer began, in the protocol's error envelope; `undefined` for one nothing expected.
   * A 401 goes without the correlation id header. `wire` is there once the body was decoded.
   */
  readonly errorBody: (failure: ApiFailure | undefined, correlationId: string, wire: Wire | undefined) => ErrorBody
}
