import { convertToOpenAICompatibleChatMessages, prepareTools } from "@ai-sdk/openai-compatible/internal"
import type { LanguageModelV4CallOptions, SharedV4Warning } from "@ai-sdk/provider"
import { isCustomReasoning } from "@ai-sdk/provider-utils"

/** A call's Chat Completions arguments, its warnings and the key its providerMetadata goes under. */
export interface PreparedRequest {
  readonly args: Record<string, unknown>
  readonly warnings: Array<SharedV4Warning>
  readonly metadataKey: string
}

const toCamelCase = (name: string): string => name.replace(/[_-]([a-z])/g, (match) => match[1]!.toUpperCase())

/** Where the provider reads call options from, in the order the AI SDK merges them. */
export const optionNamespaces = (providerName: string): ReadonlyArray<string> => [
  "openai-compatible",
  "openaiCompatible",
  providerName,
  toCamelCase(providerName)
]

/** True when the call sets options under any of `namespaces` (`providerOptions` may be undefined). */
export const setsProviderOptions = (
  namespaces: ReadonlyArray<string>,
  providerOptions: LanguageModelV4CallOptions["providerOptions"]
): boolean => providerOptions != null && namespaces.some((namespace) => providerOptions[namespace] != null)

/** The provider name, or its camelCase form when the call's provider options use that. */
export const metadataKeyFor = (
  providerName: string,
  providerOptions: LanguageModelV4CallOptions["providerOptions"]
): string => {
  const camelName = toCamelCase(providerName)
  return camelName !== providerName && providerOptions?.[camelName] != null ? camelName : providerName
}

const STRUCTURED_OUTPUT_WARNING: SharedV4Warning = {
  type: "unsupported",
  feature: "responseFormat",
  details: "JSON response format schema is only supported with structuredOutputs"
}

/**
 * The body `getArgs` of the AI SDK openai-compatible chat model builds for a
 * call that sets none of the provider's own options (the caller hands those
 * calls to the SDK's `prepareRequest`): same keys in the same order, same
 * warnings. parley configures the provider without structured outputs, so a
 * JSON response format is always `json_object`.
 */
export const requestArgs = (
  modelId: string,
  providerName: string,
  options: LanguageModelV4CallOptions
): PreparedRequest => {
  const warnings: Array<SharedV4Warning> = []
  if (options.topK != null) warnings.push({ type: "unsupported", feature: "topK" })
  const responseFormat = options.responseFormat
  if (responseFormat?.type === "json" && responseFormat.schema != null) warnings.push(STRUCTURED_OUTPUT_WARNING)
  const { tools, toolChoice, toolWarnings } = prepareTools({ tools: options.tools, toolChoice: options.toolChoice })
  const reasoningEffort = isCustomReasoning(options.reasoning) ? options.reasoning : undefined
  return {
    metadataKey: providerName,
    args: {
      model: modelId,
      user: undefined,
      max_tokens: options.maxOutputTokens,
      temperature: options.temperature,
      top_p: options.topP,
      frequency_penalty: options.frequencyPenalty,
      presence_penalty: options.presencePenalty,
      response_format: responseFormat?.type === "json" ? { type: "json_object" } : undefined,
      stop: options.stopSequences,
      seed: options.seed,
      ...(reasoningEffort !== undefined ? { reasoning_effort: reasoningEffort } : {}),
      messages: convertToOpenAICompatibleChatMessages(options.prompt, {
        provider: providerName,
        providerOptionsKey: providerName
      }),
      tools,
      tool_choice: toolChoice
    },
    warnings: [...warnings, ...toolWarnings]
  }
}
