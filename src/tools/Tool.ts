import type { Effect, Schema } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { PromptType } from "../domain/PromptType.ts"

/** A context field a tool needs, with the structure that field must have. */
export interface ContextRequirement {
  readonly field: string
  /** Checked against the merged context value; `undefined` means presence only. */
  readonly schema?: Schema.Top
}

/** What a tool's `execute` receives besides its input. */
export interface ToolExecution {
  readonly toolCallId: string
  /** `context` with `toolContext[tool.name]` merged over it (rule 9). */
  readonly context: Readonly<Record<string, unknown>>
  readonly sandboxId: string | null
  readonly key: ApiKey
  /** Aborted when the client disconnects or a request limit is reached. */
  readonly signal: AbortSignal
}

/** A tool failure the model is told about (the loop goes on). */
export class ToolFailure extends Error {
  override readonly name = "ToolFailure"
}

/**
 * The tool contract. Tools are described with Effect Schemas; the input schema
 * goes to the model as JSON Schema and decodes the model's arguments before
 * `execute` runs. `execute` is interrupted (and `signal` aborted) on cancel.
 */
export interface Tool {
  readonly name: string
  readonly description: string
  readonly category: string
  readonly inputSchema: Schema.Codec<any, any>
  readonly requiredContext: ReadonlyArray<ContextRequirement>
  readonly requiresSandbox: boolean
  readonly promptTypes: ReadonlyArray<PromptType>
  readonly execute: (input: any, execution: ToolExecution) => Effect.Effect<unknown, ToolFailure>
}
