import type { LanguageModelV4ToolChoice } from "@ai-sdk/provider"
import type { ModelMessage } from "ai"
import type { ApprovalAnswer, CallSettings, ClientTool } from "../agent/AgentRun.ts"
import type { ChatRequest } from "../domain/ChatRequest.ts"
import type { InvalidHistory } from "../domain/requestErrors.ts"
import type { InvalidApproval } from "./planErrors.ts"

/** A client tool as a protocol decoded it, with where it was in the body for the errors that name it. */
export interface DecodedClientTool extends ClientTool {
  /** `tools[0].function.name`: the field an error about the tool names. */
  readonly path: string
}

/**
 * The one chat request the planner takes, whatever door it came through
 * (docs/DESIGN.md §14): a protocol decodes its body into this, and the
 * planner never sees a raw body. The conversation is the AI SDK's model
 * messages, which each protocol makes from its own messages: no format
 * reaches the model through another's. The optional fields are what the
 * standard doors add to the spec's request.
 */
export type InternalChatRequest = Omit<ChatRequest, "messages"> & {
  readonly messages: ReadonlyArray<ModelMessage>
  /**
   * Per model message, the index of the client's message it came from (one
   * client message can make several: an assistant turn's steps and tool
   * results). Pruning keeps or drops a client message whole and counts them;
   * errors name the client's own places.
   */
  readonly origins: ReadonlyArray<number>
  /**
   * The approval answers the conversation's last turn carries
   * (docs/DESIGN.md §10), each at its place in the body; the planner checks
   * their signatures, and the run carries them out before its first step.
   */
  readonly approvals?: ReadonlyArray<ApprovalAnswer> | undefined
  /** What the protocol found wrong in the conversation as a whole, told in the plan's order (after the tools). */
  readonly conversationProblem?: InvalidHistory | InvalidApproval | undefined
  /** The id of the client's message that a run answering approvals continues (the ui stream's `start`). */
  readonly continues?: string | undefined
  /** The tools the client runs itself; a call of one ends the run. */
  readonly clientTools?: ReadonlyArray<DecodedClientTool> | undefined
  /** Hosted tools the client asked for that parley does not provide: dropped, and named in `X-Tools-Skipped`. */
  readonly skippedTools?: ReadonlyArray<string> | undefined
  /** How the model picks a tool on the first call (`auto` otherwise). */
  readonly toolChoice?: LanguageModelV4ToolChoice | undefined
  readonly settings?: CallSettings | undefined
  /** The most tokens each model call may write, as the client asked (capped by the model's limit). */
  readonly maxOutputTokens?: number | undefined
  /**
   * Set by a protocol that cannot carry approval requests: a call that needs
   * approval is refused with this text as its error output (as on `/mcp`).
   */
  readonly approvalRefusal?: ((toolName: string) => string) | undefined
  /**
   * Tools (parley's names) whose calls in this request wait for a person
   * beyond the key's rules (Responses' `require_approval: "always"`): a
   * request adds care, never waives the key's.
   */
  readonly approvalAlso?: ReadonlyArray<string> | undefined
  /**
   * The request only prepares a conversation for the next (a WebSocket turn with OpenAI's `generate: false`,
   * docs/DESIGN.md §14): nothing runs, so a conversation of system messages alone is no error.
   */
  readonly prepareOnly?: boolean | undefined
}
