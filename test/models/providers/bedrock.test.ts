import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock"
import { Redacted } from "effect"
import { REASONING_SIGNATURE, startBedrock } from "../../support/upstreams/bedrock.ts"
import { firstByteTimeoutSuite } from "./firstByteTimeout.ts"
import { providerSuite } from "./providerSuite.ts"

// A Bedrock API key as the console issues it: `ABSK` and base64.
const API_KEY = "ABSKQmVkcm9ja0FQSUtleS1wYXJsZXktdGVzdC0wMTIzNDU2Nzg5"

providerSuite({
  type: "bedrock",
  apiKey: API_KEY,
  environment: { AWS_REGION: "us-east-1" },
  providerSettings: { region: "us-east-1" },
  // A cross-region inference profile's id, with the `:` the path must escape.
  models: [{
    id: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    name: "Claude Sonnet 4.5",
    categories: ["chat", "reasoning"],
    contextWindow: 200_000,
    maxOutputTokens: 64_000
  }],
  missingKeyProblem: "providers[0]: credentials are required for type bedrock",
  startProblems: [
    "providers[0].models: required for type bedrock",
    "providers[0]: region is required for type bedrock, or set AWS_REGION"
  ],
  startUpstream: (key) => startBedrock(key),
  keyOf: (request) => request.headers.authorization?.replace(/^Bearer /, ""),
  sdkModel: (baseURL, apiKey, modelId) =>
    createAmazonBedrock({ baseURL, apiKey, region: "us-east-1" }).languageModel(modelId),
  sdkProvider: "amazon-bedrock",
  wholeAnswers: true,
  streamErrors: true,
  thinkingSignature: REASONING_SIGNATURE,
  toolLoopUsage: { inputTokens: 110, outputTokens: 18, totalTokens: 128, cachedInputTokens: 32 }
})

firstByteTimeoutSuite({
  type: "bedrock",
  startUpstream: () => startBedrock(API_KEY),
  provider: (baseURL, model) => ({
    id: "b",
    type: "bedrock",
    region: "us-east-1",
    baseURL,
    apiKey: Redacted.make(API_KEY),
    models: [model]
  }),
  modelId: "amazon.nova-pro-v1:0"
})
