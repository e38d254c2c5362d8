import { createAnthropic } from "@ai-sdk/anthropic"
import { createOpenAI } from "@ai-sdk/openai"
import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import type { LanguageModelV4 } from "@ai-sdk/provider"
import { Redacted } from "effect"
import type { ProviderConfig } from "../config/AppConfig.ts"
import { nodeFetch } from "./nodeFetch.ts"

/**
 * One AI SDK provider instance per configured provider; returns its model
 * factory. The key is handed over only here, unwrapped at the last moment.
 */
export const modelFactoryFor = (provider: ProviderConfig): (modelId: string) => LanguageModelV4 => {
  const apiKey = provider.apiKey === undefined ? undefined : Redacted.value(provider.apiKey)
  const baseURL = provider.baseURL === undefined ? {} : { baseURL: provider.baseURL }
  switch (provider.type) {
    case "openai": {
      // Chat Completions rather than Responses: it is what OPENAI_BASE_URL
      // proxies and OpenAI-compatible servers speak as well.
      const openai = createOpenAI({ ...baseURL, fetch: nodeFetch, ...(apiKey === undefined ? {} : { apiKey }) })
      return (modelId) => openai.chat(modelId)
    }
    case "openai-compatible": {
      const compatible = createOpenAICompatible({
        name: provider.id,
        baseURL: provider.baseURL,
        includeUsage: true,
        fetch: nodeFetch,
        ...(apiKey === undefined ? {} : { apiKey })
      })
      return (modelId) => compatible.chatModel(modelId)
    }
    case "anthropic": {
      const anthropic = createAnthropic({ ...baseURL, fetch: nodeFetch, ...(apiKey === undefined ? {} : { apiKey }) })
      return (modelId) => anthropic.messages(modelId)
    }
  }
}
