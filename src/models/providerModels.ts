import type { LanguageModelV4 } from "@ai-sdk/provider"
import { Redacted } from "effect"
import { DEFAULT_PROVIDER_TIMEOUTS, type ProviderConfig } from "../config/AppConfig.ts"
import { makeNodeFetch } from "./nodeFetch.ts"
import { OpenAICompatibleChatModel } from "./openaiCompatible/OpenAICompatibleChatModel.ts"

/**
 * One provider instance per configured provider; resolves to its model
 * factory. The key is handed over only here, unwrapped at the last moment.
 * OpenAI-compatible servers get parley's own client (the same parts as the
 * AI SDK's, at a fraction of the CPU: BENCHMARKS.md); every other type's AI
 * SDK package (docs/DESIGN.md §15) is loaded only when a provider of its type
 * is configured. Every call gives up on a provider silent past its timeouts
 * (docs/DESIGN.md §3.21).
 */
export const modelFactoryFor = async (provider: ProviderConfig): Promise<(modelId: string) => LanguageModelV4> => {
  const apiKey = provider.apiKey === undefined ? undefined : Redacted.value(provider.apiKey)
  const baseURL = provider.baseURL === undefined ? {} : { baseURL: provider.baseURL }
  const timeouts = provider.timeouts ?? DEFAULT_PROVIDER_TIMEOUTS
  // What every AI SDK package takes alike: the base URL given, and parley's outbound client with the provider's timeouts.
  const settings = { ...baseURL, fetch: makeNodeFetch(timeouts, timeouts.answerMs) }
  const keyed = apiKey === undefined ? {} : { apiKey }
  switch (provider.type) {
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai")
      // Chat Completions rather than Responses: it is what OPENAI_BASE_URL
      // proxies and OpenAI-compatible servers speak as well.
      const openai = createOpenAI({
        ...settings,
        ...keyed
      })
      return (modelId) => openai.chat(modelId)
    }
    case "openai-compatible":
      return (modelId) =>
        new OpenAICompatibleChatModel({
          provider: provider.id,
          baseURL: provider.baseURL,
          modelId,
          timeouts,
          wholeAnswerMs: timeouts.answerMs,
          ...keyed
        })
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic")
      const anthropic = createAnthropic({
        ...settings,
        ...keyed
      })
      return (modelId) => anthropic.messages(modelId)
    }
    case "google": {
      // The Gemini API's own wire (`generateContent`, `streamGenerateContent?alt=sse`), key in `x-goog-api-key`.
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google")
      const google = createGoogleGenerativeAI({
        ...settings,
        ...keyed
      })
      return (modelId) => google.chat(modelId)
    }
    case "vertex": {
      // Gemini on Vertex AI: the Gemini wire under `…/publishers/google/models/{model}`. A key is express
      // mode's, in `x-goog-api-key`; without one the package signs in with Google credentials (ADC).
      const { createVertex } = await import("@ai-sdk/google-vertex")
      const vertex = createVertex({
        ...settings,
        ...(provider.project === undefined ? {} : { project: provider.project }),
        ...(provider.location === undefined ? {} : { location: provider.location }),
        ...keyed
      })
      return (modelId) => vertex.languageModel(modelId)
    }
    case "bedrock": {
      // Bedrock's Converse API (`/model/{id}/converse`, `/converse-stream` in AWS's event-stream framing).
      const { createAmazonBedrock } = await import("@ai-sdk/amazon-bedrock")
      const credentials = provider.credentials
      const bedrock = createAmazonBedrock({
        ...settings,
        region: provider.region,
        // An empty key keeps the package from taking AWS_BEARER_TOKEN_BEDROCK over the credentials parley chose.
        ...(credentials === undefined ? { apiKey: apiKey ?? "" } : {
          apiKey: "",
          accessKeyId: Redacted.value(credentials.accessKeyId),
          secretAccessKey: Redacted.value(credentials.secretAccessKey),
          ...(credentials.sessionToken === undefined ? {} : { sessionToken: Redacted.value(credentials.sessionToken) })
        })
      })
      return (modelId) => bedrock.languageModel(modelId)
    }
    case "azure": {
      // Azure OpenAI's v1 API, Chat Completions (`/openai/v1/chat/completions`, the deployment
      // in the body, the key in `api-key`) rather than the package's default Responses API, as
      // for type openai. `baseURL`, else `https://{resourceName}.openai.azure.com/openai`.
      const { createAzure } = await import("@ai-sdk/azure")
      const azure = createAzure({
        ...settings,
        ...(provider.resourceName === undefined ? {} : { resourceName: provider.resourceName }),
        ...(provider.apiVersion === undefined ? {} : { apiVersion: provider.apiVersion }),
        ...keyed
      })
      return (modelId) => azure.chat(modelId)
    }
    case "mistral": {
      // Mistral's chat API (`/v1/chat/completions`), not its Conversations API.
      const { createMistral } = await import("@ai-sdk/mistral")
      const mistral = createMistral({
        ...settings,
        ...keyed
      })
      return (modelId) => mistral.chat(modelId)
    }
    case "groq": {
      // GroqCloud's OpenAI-compatible API, through its own package: usage and errors as Groq sends them.
      const { createGroq } = await import("@ai-sdk/groq")
      const groq = createGroq({
        ...settings,
        ...keyed
      })
      return (modelId) => groq.languageModel(modelId)
    }
    case "xai": {
      // xAI's Responses API (`/v1/responses`): the only API `@ai-sdk/xai` 5 speaks for language models.
      const { createXai } = await import("@ai-sdk/xai")
      const xai = createXai({
        ...settings,
        ...keyed
      })
      return (modelId) => xai.responses(modelId)
    }
    case "deepseek": {
      const { createDeepSeek } = await import("@ai-sdk/deepseek")
      const deepseek = createDeepSeek({
        ...settings,
        ...keyed
      })
      return (modelId) => deepseek.languageModel(modelId)
    }
  }
}
