import type { JSONSchema7, LanguageModelV4 } from "@ai-sdk/provider"
import type { ToolResultPart } from "ai"
import type { Effect, Schema, Scope } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { PromptType } from "../domain/PromptType.ts"

/** A context field a tool reads, with the structure that field must have. */
export interface ContextField {
  readonly field: string
  /** A required field's is checked against the merged context value before the run; `undefined` means presence only. */
  readonly schema?: Schema.Top
}

/** Tokens one model call used, named as the spec's Usage; a count the provider did not send is undefined. */
export interface ModelCallUsage {
  readonly inputTokens: number | undefined
  readonly outputTokens: number | undefined
  readonly reasoningTokens: number | undefined
  readonly cachedInputTokens: number | undefined
}

/**
 * Where a tool reports a model call it made itself, with the catalog id of
 * the model when it is not the run's. It counts in the request's usage
 * ledger row, not in the answer's `usage`, which is the agent's own
 * (docs/DESIGN.md §7).
 */
export type UsageSink = (usage: ModelCallUsage, model?: string) => void

/** For a run that keeps no meter (one that writes no ledger row). */
export const unmeteredUsage: UsageSink = () => undefined

/**
 * What a tool's `execute` receives besides its input. The loop passes the
 * merged context as it is; `defineTool` hands a tool its decoded `Context`.
 */
export interface ToolExecution<Context = Readonly<Record<string, unknown>>> {
  readonly toolCallId: string
  /** `context` with `toolContext[tool.name]` merged over it (docs/spec.md, POST /chat rule 9). */
  readonly context: Context
  readonly sandboxId: string | null
  readonly key: ApiKey
  /** The run's model: the default of tools that call a model themselves. */
  readonly model?: LanguageModelV4
  /** Aborted when the client disconnects or a request limit is reached. */
  readonly signal: AbortSignal
  readonly reportUsage: UsageSink
  /**
   * Closes when the run ends, however it ends: a /chat run's (made on its
   * first tool call), a `/mcp` call's. What a tool keeps for the run alone
   * (the browser's pages without a sandbox) closes with it; absent (a caller
   * that does not say), such things idle out.
   */
  readonly runScope?: Scope.Scope | undefined
}

/** What the model is told of a tool's output: the AI SDK's tool-result output (text, JSON, or content with files). */
export type ToolModelOutput = ToolResultPart["output"]

/** A tool failure the model is told about (the loop goes on). */
export class ToolFailure extends Error {
  override readonly name = "ToolFailure"
}

/**
 * A tool as the registry and the loop hold it, whatever its input and context:
 * built by `defineTool`, which types both. The input schema goes to the model
 * as JSON Schema and decodes the model's arguments before `execute` runs.
 * `execute` is interrupted (and `signal` aborted) on cancel.
 */
export interface Tool {
  readonly name: string
  readonly description: string
  readonly category: string
  readonly inputSchema: Schema.Codec<unknown, unknown>
  /**
   * The input schema as the tool's source gave it in JSON Schema (an MCP
   * server's tool): offered to the model as is, with `inputSchema` checking
   * against it. Absent: derived from `inputSchema`.
   */
  readonly inputJsonSchema?: JSONSchema7
  /** Derived from the tool's declared context: its fields that are not optional. */
  readonly requiredContext: ReadonlyArray<ContextField>
  /**
   * The declared context's optional fields (schemas as declared): never
   * checked before a run, only described where the context is (`/mcp`'s `_context`).
   */
  readonly optionalContext?: ReadonlyArray<ContextField>
  readonly requiresSandbox: boolean
  /**
   * Set on a tool that runs without a sandbox but uses one the request names:
   * what for (the browser keeps its pages in it across requests). Where a
   * sandbox is offered (GET /tools, `/mcp`'s `_sandboxId`) it is optional for this tool.
   */
  readonly optionalSandbox?: string | undefined
  /** The prompt types whose tool set holds this tool (docs/DESIGN.md §3.12); declared here only. */
  readonly promptTypes: ReadonlyArray<PromptType>
  /** `input` is what `inputSchema` decoded. */
  readonly execute: (input: unknown, execution: ToolExecution) => Effect.Effect<unknown, ToolFailure>
  /**
   * How an output (as JSON) is told to the model when JSON text would not do,
   * e.g. a screenshot as an image. Applied in the run and to this tool's
   * outputs in the client's history alike. Absent: text for a string, JSON otherwise.
   */
  readonly toModelOutput?: (output: unknown) => ToolModelOutput
}
