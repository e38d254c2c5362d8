import type { AgentRun, ApprovalAnswer } from "../agent/AgentRun.ts"
import type { InvalidHistory, InvalidRequest } from "../domain/requestErrors.ts"
import type { ValidationReport } from "../domain/ValidationReport.ts"
import type { McpServerUnavailable, McpToolHeldBack } from "../mcp/mcpErrors.ts"
import type { ModelEntry } from "../models/ModelRegistry.ts"
import type { InvalidPromptType } from "../prompts/promptErrors.ts"
import type { InvalidPruneOptions } from "../prune/pruneErrors.ts"
import type { SandboxElsewhere } from "../sandbox/Sandbox.ts"
import type { SandboxForbidden, UnknownSandbox } from "../sandbox/sandboxAccess.ts"
import type { MissingToolContext, ToolNotAllowed, UnknownTool } from "../tools/toolErrors.ts"
import type { EmptyConversation, InvalidApproval, ModelNotAllowed, UnknownModel } from "./planErrors.ts"

/** What a chat request turns into before anything is sent: a report, or a run with the facts its answer states. */
export type ChatPlan =
  | { readonly _tag: "Report"; readonly report: ValidationReport }
  | {
    readonly _tag: "Run"
    /** Without its budget, which governance opens when it admits the run (./Governance.ts). */
    readonly run: AgentRun
    /** The run's model, whose window and prices its budget counts with. */
    readonly entry: ModelEntry
    /** The approval answers the run carries out, checked; governance claims them when it admits the run. */
    readonly approvals: ReadonlyArray<ApprovalAnswer>
    readonly stream: boolean
    readonly tools: { readonly used: ReadonlyArray<string>; readonly skipped: ReadonlyArray<string> }
    /** Whether pruning changed the conversation. */
    readonly pruned: boolean
  }

/** A plan that runs the agent. */
export type RunPlan = Extract<ChatPlan, { readonly _tag: "Run" }>

/** Why a chat request cannot run, in the order the plan checks. */
export type ChatPlanFailure =
  | InvalidPromptType
  | ModelNotAllowed
  | UnknownModel
  | UnknownTool
  | ToolNotAllowed
  | UnknownSandbox
  | SandboxForbidden
  | SandboxElsewhere
  | MissingToolContext
  | InvalidRequest
  | EmptyConversation
  | InvalidHistory
  | InvalidApproval
  | InvalidPruneOptions
  | McpServerUnavailable
  | McpToolHeldBack
