import { createGroq } from "@ai-sdk/groq"
import { startGroq } from "../../support/upstreams/groq.ts"
import { providerSuite } from "./providerSuite.ts"

providerSuite({
  type: "groq",
  apiKey: "gsk_parleyTest0123456789abcdefghijklmnopqrstuvwxyz",
  startUpstream: startGroq,
  keyOf: (request) => request.headers.authorization?.replace(/^Bearer /, ""),
  sdkModel: (baseURL, apiKey, modelId) => createGroq({ baseURL, apiKey }).languageModel(modelId),
  sdkProvider: "groq.chat",
  wholeAnswers: true,
  streamErrors: true,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, reasoningTokens: 5, cachedInputTokens: 32 }
})
