import type { Effect } from "effect"
import type { CollectedRun } from "../agent/Agent.ts"
import type { RunPlan } from "../chat/chatPlan.ts"
import type { InternalChatRequest } from "../chat/chatRequest.ts"
import type { ChatProtocolName } from "../domain/protocols.ts"
import type { InvalidRequest } from "../domain/requestErrors.ts"
import type { ErrorBody } from "./errorResponse.ts"
import type { ApiFailure } from "./errorTable.ts"
import type { StreamEncoding } from "./SseWriter.ts"

/**
 * One wire format of the chat routes (docs/DESIGN.md §14): what `src/protocols/<name>/`
 * gives the route. The route does the rest, the same for every protocol.
 */
export interface ChatProtocol {
  /** Its contract name (`ui`, `chat-completions`…): the ledger's `protocol` column says it. */
  readonly name: ChatProtocolName
  /** The body, parsed, as the internal request (never seen raw by the planner). */
  readonly decode: (body: unknown) => Effect.Effect<InternalChatRequest, InvalidRequest>
  readonly stream: StreamEncoding
  /** The whole answer of a run sent in one piece: the protocol's fold over its chunks. */
  readonly collect: (run: CollectedRun, plan: RunPlan) => unknown
  /**
   * A failure before the answer began, in the protocol's error envelope; `undefined` for one nothing expected.
   * A 401 goes without the correlation id header.
   */
  readonly errorBody: (failure: ApiFailure | undefined, correlationId: string) => ErrorBody
}
