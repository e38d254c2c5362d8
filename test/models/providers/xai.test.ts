import { createXai } from "@ai-sdk/xai"
import { startXai } from "../../support/upstreams/xai.ts"
import { providerSuite } from "./providerSuite.ts"

providerSuite({
  type: "xai",
  apiKey: "xai-parleyTest0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQR",
  startUpstream: startXai,
  keyOf: (request) => request.headers.authorization?.replace(/^Bearer /, ""),
  sdkModel: (baseURL, apiKey, modelId) => createXai({ baseURL, apiKey }).responses(modelId),
  sdkProvider: "xai.responses",
  wholeAnswers: true,
  streamErrors: true,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, reasoningTokens: 5, cachedInputTokens: 32 }
})
