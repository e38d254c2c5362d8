import { createMistral } from "@ai-sdk/mistral"
import { startMistral } from "../../support/upstreams/mistral.ts"
import { providerSuite } from "./providerSuite.ts"

providerSuite({
  type: "mistral",
  apiKey: "mSt7parleyTest0123456789abcdefGHIJ",
  startUpstream: startMistral,
  keyOf: (request) => request.headers.authorization?.replace(/^Bearer /, ""),
  sdkModel: (baseURL, apiKey, modelId) => createMistral({ baseURL, apiKey }).chat(modelId),
  sdkProvider: "mistral.chat",
  wholeAnswers: true,
  // Mistral reports cached input (`num_cached_tokens`), not its thinking tokens apart.
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, cachedInputTokens: 32 }
})
