import { createGoogleGenerativeAI } from "@ai-sdk/google"
import { Redacted } from "effect"
import { startGemini } from "../../support/upstreams/gemini.ts"
import { firstByteTimeoutSuite } from "./firstByteTimeout.ts"
import { providerSuite } from "./providerSuite.ts"

const API_KEY = "AIzaSyD-parley-test-0123456789abcdefghij"

providerSuite({
  type: "google",
  apiKey: API_KEY,
  startUpstream: startGemini,
  keyOf: (request) => request.headers["x-goog-api-key"] as string | undefined,
  sdkModel: (baseURL, apiKey, modelId) => createGoogleGenerativeAI({ baseURL, apiKey }).chat(modelId),
  sdkProvider: "google.generative-ai",
  wholeAnswers: true,
  streamErrors: true,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, reasoningTokens: 5, cachedInputTokens: 32 }
})

firstByteTimeoutSuite({
  type: "google",
  startUpstream: () => startGemini(API_KEY),
  provider: (baseURL, model) => ({
    id: "g",
    type: "google",
    baseURL,
    apiKey: Redacted.make(API_KEY),
    models: [model]
  }),
  modelId: "gemini-2.5-flash"
})
