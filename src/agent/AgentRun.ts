import type {
  JSONSchema7,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4ToolChoice
} from "@ai-sdk/provider"
import type { ModelMessage } from "ai"
import type { Duration, Effect } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { RunBudget } from "../governance/RunBudget.ts"
import type { ModelTarget } from "../models/ModelRoute.ts"
import type { Tool } from "../tools/Tool.ts"
import type { RunMeter } from "./RunMeter.ts"

export interface ResolvedTool {
  readonly tool: Tool
  /** `context` with `toolContext[tool.name]` merged over it. */
  readonly context: Readonly<Record<string, unknown>>
}

/**
 * A tool the client runs itself (OpenAI's `function` tools, Anthropic's
 * tools with `input_schema`; docs/DESIGN.md §14): offered to the model after
 * parley's own; a call of one ends the run and goes back to the client.
 */
export interface ClientTool {
  readonly name: string
  readonly description?: string | undefined
  readonly inputSchema: JSONSchema7
  readonly strict?: boolean | undefined
}

/** What the client asked of each model call beyond the conversation and the tools (temperature, stop…). */
export type CallSettings = Pick<
  LanguageModelV4CallOptions,
  | "temperature"
  | "topP"
  | "topK"
  | "stopSequences"
  | "seed"
  | "responseFormat"
  | "reasoning"
  | "presencePenalty"
  | "frequencyPenalty"
>

/**
 * Which tool calls wait for a person (docs/DESIGN.md §10): the loop does not
 * run them but sends an approval request with the id `requestId` makes.
 */
export interface ApprovalGate {
  readonly requires: (toolName: string) => boolean
  readonly requestId: (
    call: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  ) => string
  /**
   * Set by a protocol that cannot carry an approval request (as `/mcp`): such
   * a call is refused with this text as its error output, and the run goes on.
   */
  readonly refusal?: ((toolName: string) => string) | undefined
}

/** A person's answer to an approval request, found in the conversation's last turn and checked. */
export interface ApprovalAnswer {
  /** Where it is in the client's body (`messages[1].parts[2]`, `input[4]`). */
  readonly path: string
  readonly approvalId: string
  readonly toolCallId: string
  readonly toolName: string
  readonly input: unknown
  readonly approved: boolean
  readonly reason: string | undefined
}

/** Everything one run of the tool loop needs. */
export interface AgentRun {
  readonly model: LanguageModelV4
  /** Names the provider in errors. */
  readonly provider: string
  /**
   * A route's targets in the order this run tries them (the first is `model`), and how long each but the last
   * may take to its first part (docs/DESIGN.md §15); absent: `model` alone.
   */
  readonly route?: {
    readonly targets: ReadonlyArray<ModelTarget>
    readonly firstChunkTimeoutMs?: number | undefined
  } | undefined
  readonly system: string
  /** The conversation as the protocol made it, pruned. */
  readonly messages: ReadonlyArray<ModelMessage>
  readonly tools: ReadonlyArray<ResolvedTool>
  readonly clientTools?: ReadonlyArray<ClientTool> | undefined
  /** For the first model call; later steps choose freely (`auto`), or the loop could not end. */
  readonly toolChoice?: LanguageModelV4ToolChoice | undefined
  readonly settings?: CallSettings | undefined
  readonly sandboxId: string | null
  readonly key: ApiKey
  /** Most model calls in one run (30 in production). */
  readonly maxSteps: number
  /** Longest run (300 s in production). */
  readonly timeout: Duration.Input
  readonly maxOutputTokens?: number | undefined
  /** Where the run counts every model call and tool call it makes, for the usage ledger; absent: counted nowhere. */
  readonly meter?: RunMeter | undefined
  /**
   * The key's and account's token and cost budgets (docs/DESIGN.md §11):
   * the first call is reserved before the run, each further one between
   * steps; absent, nothing is counted.
   */
  readonly budget?: RunBudget | undefined
  readonly approval?: ApprovalGate | undefined
  /**
   * The run continues the conversation's last (assistant) turn: it first
   * runs the approved calls and tells the model of the denied ones, as
   * `streamText` does with approval responses (docs/DESIGN.md §10). Its
   * `start` chunk names `messageId`, the client's message it continues, when there is one.
   */
  readonly resume?: {
    readonly messageId?: string | undefined
    readonly answers: ReadonlyArray<ApprovalAnswer>
  } | undefined
  /**
   * Completes when a client asks the run to stop (a resumable run, docs/DESIGN.md §16): the model call and
   * the tools are aborted, and the stream ends with the finish reason `stopped`.
   */
  readonly stop?: Effect.Effect<void> | undefined
}
