import { TypeValidationError } from "@ai-sdk/provider"
import { isRecord } from "../../domain/isRecord.ts"

/** The fields of a Chat Completions stream chunk the parts are made of. */
export interface ToolCallDelta {
  readonly index?: number | null
  readonly id?: string | null
  readonly function: { readonly name?: string | null; readonly arguments?: string | null }
  readonly extra_content?:
    | { readonly google?: { readonly thought_signature?: string | null } | null }
    | null
    | undefined
}

export interface ChunkUsage {
  readonly prompt_tokens?: number | null
  readonly completion_tokens?: number | null
  readonly total_tokens?: number | null
  readonly prompt_tokens_details?: { readonly cached_tokens?: number | null } | null
  readonly completion_tokens_details?: {
    readonly reasoning_tokens?: number | null
    readonly accepted_prediction_tokens?: number | null
    readonly rejected_prediction_tokens?: number | null
  } | null
}

export interface Delta {
  readonly content?: string | ReadonlyArray<{ readonly type: string; readonly [key: string]: unknown }> | null
  /** Anything: only a string counts. */
  readonly refusal?: unknown
  readonly reasoning_content?: string | null
  readonly reasoning?: string | null
  readonly tool_calls?: ReadonlyArray<ToolCallDelta> | null
}

export interface Chunk {
  readonly id?: string | null
  readonly created?: number | null
  readonly model?: string | null
  readonly choices: ReadonlyArray<{ readonly delta?: Delta | null; readonly finish_reason?: string | null }>
  readonly usage?: ChunkUsage | null
  /** Present: an error chunk, nothing else of it counts (parsed as the error structure, it has no choices). */
  readonly error?: unknown
}

/** A zod-like schema: the AI SDK provider's own chunk schema. */
export interface ChunkSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown }
}

export type Checked =
  | { readonly success: true; readonly chunk: Chunk }
  | { readonly success: false; readonly error: TypeValidationError }

const isNullishString = (value: unknown): boolean => value == null || typeof value === "string"
const isNullishNumber = (value: unknown): boolean => value == null || typeof value === "number"

const isToolCallDelta = (value: unknown): boolean =>
  isRecord(value) && isNullishNumber(value.index) && isNullishString(value.id) && value.extra_content == null &&
  isRecord(value.function) && isNullishString(value.function.name) && isNullishString(value.function.arguments)

const isDelta = (value: unknown): boolean => {
  if (!isRecord(value)) return false
  const { role, content, tool_calls } = value
  return (role == null || role === "assistant" || role === "") &&
    isNullishString(content) && isNullishString(value.reasoning_content) && isNullishString(value.reasoning) &&
    (tool_calls == null || (Array.isArray(tool_calls) && tool_calls.every(isToolCallDelta)))
}

const isChoice = (value: unknown): boolean =>
  isRecord(value) && isNullishString(value.finish_reason) && (value.delta == null || isDelta(value.delta))

const isDetails = (value: unknown, keys: ReadonlyArray<string>): boolean =>
  value == null || (isRecord(value) && keys.every((key) => isNullishNumber(value[key])))

const isUsage = (value: unknown): boolean =>
  value == null || (isRecord(value) && isNullishNumber(value.prompt_tokens) &&
    isNullishNumber(value.completion_tokens) && isNullishNumber(value.total_tokens) &&
    isDetails(value.prompt_tokens_details, ["cached_tokens"]) &&
    isDetails(value.completion_tokens_details, [
      "reasoning_tokens",
      "accepted_prediction_tokens",
      "rejected_prediction_tokens"
    ]))

/**
 * The common chunk shapes, checked by hand. Only sound: everything it
 * accepts the provider's zod schema accepts, unchanged in every field the
 * parts are made of (zod strips unknown keys, which nothing reads). What it
 * does not accept (an error chunk, content parts, Gemini's extra_content,
 * anything invalid) goes to that schema.
 */
const isCommonChunk = (value: unknown): value is Chunk =>
  isRecord(value) && isNullishString(value.id) && isNullishNumber(value.created) && isNullishString(value.model) &&
  Array.isArray(value.choices) && value.choices.every(isChoice) && isUsage(value.usage)

/** Validates a parsed chunk as the AI SDK does, by hand when it can, else with its zod schema. */
export const checkChunk = (value: unknown, schema: ChunkSchema): Checked => {
  if (isCommonChunk(value)) return { success: true, chunk: value }
  const result = schema.safeParse(value)
  return result.success
    ? { success: true, chunk: result.data as Chunk }
    : { success: false, error: TypeValidationError.wrap({ value, cause: result.error }) }
}
