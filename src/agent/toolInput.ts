import type { LanguageModelV4ToolCall, SharedV4ProviderMetadata } from "@ai-sdk/provider"
import { getErrorMessage, JSONParseError, TypeValidationError } from "@ai-sdk/provider"
import { InvalidToolInputError, NoSuchToolError } from "ai"
import { Result } from "effect"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../domain/jsonDepth.ts"
import type { RunTool, ToolSet } from "./toolSet.ts"

interface CallBase {
  readonly toolCallId: string
  readonly toolName: string
  /** The arguments as JSON (what the history keeps); the raw text when they are not JSON. */
  readonly input: unknown
  readonly providerMetadata: SharedV4ProviderMetadata | undefined
  readonly providerExecuted: boolean | undefined
}

export interface ValidToolCall extends CallBase {
  readonly valid: true
  readonly client?: undefined
  readonly runTool: RunTool
  /** The arguments decoded with the tool's input schema: what `execute` receives. */
  readonly decoded: unknown
}

export interface InvalidToolCall extends CallBase {
  readonly valid: false
  readonly client?: undefined
  readonly runTool?: undefined
  /** What the model and the client are told, worded as the AI SDK words it. */
  readonly errorText: string
}

/**
 * A call of a tool the client runs itself (docs/DESIGN.md §14): parley does
 * not judge its arguments (the client's schema is the client's), it hands
 * the call back and the run ends.
 */
export interface ClientToolCall extends CallBase {
  readonly valid: true
  readonly client: true
  readonly runTool?: undefined
}

export type ParsedToolCall = ValidToolCall | InvalidToolCall | ClientToolCall

// Arguments nested deeper than a body may be (docs/DESIGN.md §3.9) are no JSON parley takes: an invalid call, kept as
// its text, so that no walk over the history (the next model call's serializer first) overflows the stack.
const parseJson = (text: string): Result.Result<unknown, JSONParseError> => {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    const cause = new Error(`nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`)
    return Result.fail(new JSONParseError({ text, cause }))
  }
  try {
    return Result.succeed(JSON.parse(text))
  } catch (cause) {
    return Result.fail(new JSONParseError({ text, cause }))
  }
}

/**
 * Decodes a model's tool call against the tool's input schema. A call of an
 * unknown tool, unparsable JSON or input the schema rejects is an invalid
 * call: the loop reports it to the model and goes on.
 */
export const parseToolCall = (call: LanguageModelV4ToolCall, tools: ToolSet): ParsedToolCall => {
  const base = {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    providerMetadata: call.providerMetadata,
    providerExecuted: call.providerExecuted
  }
  // An invalid call keeps its arguments as JSON when they parse, else as the raw text.
  const invalid = (cause: unknown): InvalidToolCall => {
    const parsed = parseJson(call.input)
    return {
      ...base,
      valid: false,
      input: Result.isSuccess(parsed) ? parsed.success : call.input,
      errorText: getErrorMessage(
        NoSuchToolError.isInstance(cause)
          ? cause
          : new InvalidToolInputError({ toolName: call.toolName, toolInput: call.input, cause })
      )
    }
  }
  if (tools.client.has(call.toolName)) {
    const parsed = parseJson(call.input.trim() === "" ? "{}" : call.input)
    return { ...base, valid: true, client: true, input: Result.isSuccess(parsed) ? parsed.success : call.input }
  }
  const runTool = tools.byName.get(call.toolName)
  if (runTool === undefined) {
    const availableTools = tools.byName.size === 0 ? undefined : Array.from(tools.byName.keys())
    return invalid(new NoSuchToolError({ toolName: call.toolName, availableTools }))
  }
  const parsed = call.input.trim() === "" ? Result.succeed({}) : parseJson(call.input)
  if (Result.isFailure(parsed)) return invalid(parsed.failure)
  const input = parsed.success
  const decoded = runTool.decode(input)
  if (Result.isFailure(decoded)) return invalid(TypeValidationError.wrap({ value: input, cause: decoded.failure }))
  return { ...base, valid: true, input, runTool, decoded: decoded.success }
}
