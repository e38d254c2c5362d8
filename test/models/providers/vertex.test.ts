import { createVertex } from "@ai-sdk/google-vertex"
import { startVertex } from "../../support/upstreams/vertex.ts"
import { providerSuite } from "./providerSuite.ts"

// An express-mode key looks like a Gemini API key.
const API_KEY = "AIzaSyV-parley-test-0123456789abcdefghij"

providerSuite({
  type: "vertex",
  apiKey: API_KEY,
  models: [{
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    categories: ["chat", "reasoning"],
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536
  }],
  missingKeyProblem:
    "providers[0]: project is required for type vertex with Google credentials, or set GOOGLE_VERTEX_PROJECT",
  startProblems: [
    "providers[0].models: required for type vertex",
    "providers[0]: location is required for type vertex with Google credentials, or set GOOGLE_VERTEX_LOCATION"
  ],
  startUpstream: (key) => startVertex(key),
  keyOf: (request) => request.headers["x-goog-api-key"] as string | undefined,
  sdkModel: (baseURL, apiKey, modelId) => createVertex({ baseURL, apiKey }).languageModel(modelId),
  sdkProvider: "google.vertex.chat",
  wholeAnswers: true,
  streamErrors: true,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, reasoningTokens: 5, cachedInputTokens: 32 }
})
