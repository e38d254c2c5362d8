import type { LanguageModelV4 } from "@ai-sdk/provider"
import type { UIMessage } from "ai"
import type { Duration } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { Tool } from "../tools/Tool.ts"
import type { RunMeter } from "./RunMeter.ts"

export interface ResolvedTool {
  readonly tool: Tool
  /** `context` with `toolContext[tool.name]` merged over it. */
  readonly context: Readonly<Record<string, unknown>>
}

/** Everything one run of the tool loop needs. */
export interface AgentRun {
  readonly model: LanguageModelV4
  /** Names the provider in errors. */
  readonly provider: string
  readonly system: string
  /** The conversation in UIMessage form, already normalized and pruned. */
  readonly messages: ReadonlyArray<UIMessage>
  readonly tools: ReadonlyArray<ResolvedTool>
  readonly sandboxId: string | null
  readonly key: ApiKey
  /** Most model calls in one run (30 in production). */
  readonly maxSteps: number
  /** Longest run (300 s in production). */
  readonly timeout: Duration.Input
  readonly maxOutputTokens?: number | undefined
  /** Where the run counts every model call and tool call it makes, for the usage ledger; absent: counted nowhere. */
  readonly meter?: RunMeter | undefined
}
