import { createDeepSeek } from "@ai-sdk/deepseek"
import { startDeepSeek } from "../../support/upstreams/deepseek.ts"
import { providerSuite } from "./providerSuite.ts"

providerSuite({
  type: "deepseek",
  apiKey: "sk-parleytest0123456789abcdef0123456789",
  startUpstream: startDeepSeek,
  keyOf: (request) => request.headers.authorization?.replace(/^Bearer /, ""),
  sdkModel: (baseURL, apiKey, modelId) => createDeepSeek({ baseURL, apiKey }).languageModel(modelId),
  sdkProvider: "deepseek.chat",
  wholeAnswers: true,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, reasoningTokens: 5, cachedInputTokens: 32 }
})
