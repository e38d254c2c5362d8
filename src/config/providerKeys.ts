import { Config, type Option, type Redacted } from "effect"
import type { VendorProviderType } from "./ProviderConfig.ts"

/**
 * The environment variable each provider type's AI SDK package reads its API
 * key from when it is given none. parley reads it itself, at start, so a
 * missing key is a configuration problem rather than a failed request
 * (docs/DESIGN.md §15).
 */
export const keyVariableOf: Readonly<Record<VendorProviderType, string>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
  // Express mode's key; without one, Vertex takes Google credentials (docs/DESIGN.md §15).
  vertex: "GOOGLE_VERTEX_API_KEY",
  azure: "AZURE_API_KEY",
  // A Bedrock API key, sent as a bearer token; without one, requests are SigV4-signed.
  bedrock: "AWS_BEARER_TOKEN_BEDROCK",
  mistral: "MISTRAL_API_KEY",
  groq: "GROQ_API_KEY",
  xai: "XAI_API_KEY",
  deepseek: "DEEPSEEK_API_KEY"
}

// Each name spelled out, so that the configuration guide's test sees what is read.
const keyVariable = (type: VendorProviderType): Config.Config<Redacted.Redacted<string>> => {
  switch (type) {
    case "openai":
      return Config.Redacted("OPENAI_API_KEY")
    case "anthropic":
      return Config.Redacted("ANTHROPIC_API_KEY")
    case "google":
      return Config.Redacted("GOOGLE_GENERATIVE_AI_API_KEY")
    case "vertex":
      return Config.Redacted("GOOGLE_VERTEX_API_KEY")
    case "azure":
      return Config.Redacted("AZURE_API_KEY")
    case "bedrock":
      return Config.Redacted("AWS_BEARER_TOKEN_BEDROCK")
    case "mistral":
      return Config.Redacted("MISTRAL_API_KEY")
    case "groq":
      return Config.Redacted("GROQ_API_KEY")
    case "xai":
      return Config.Redacted("XAI_API_KEY")
    case "deepseek":
      return Config.Redacted("DEEPSEEK_API_KEY")
  }
}

/** The key in the type's conventional variable, when set. */
export const conventionalKey = (type: VendorProviderType): Config.Config<Option.Option<Redacted.Redacted<string>>> =>
  Config.option(keyVariable(type))

/** The types in the order their shortcuts are added (docs/configuration.md). */
export const vendorTypes = Object.keys(keyVariableOf) as ReadonlyArray<VendorProviderType>

/**
 * `AZURE_RESOURCE_NAME`, which `@ai-sdk/azure` reads when given neither a
 * resource name nor a base URL; read at start for the same reason as the keys.
 */
export const azureResourceName: Config.Config<Option.Option<string>> = Config.option(
  Config.String("AZURE_RESOURCE_NAME")
)

/**
 * The variables `@ai-sdk/google-vertex` and `@ai-sdk/amazon-bedrock` read
 * for what an entry leaves out; read at start, like the keys.
 */
export const cloudVariables = Config.all({
  vertexProject: Config.option(Config.String("GOOGLE_VERTEX_PROJECT")),
  vertexLocation: Config.option(Config.String("GOOGLE_VERTEX_LOCATION")),
  awsRegion: Config.option(Config.String("AWS_REGION")),
  awsAccessKeyId: Config.option(Config.Redacted("AWS_ACCESS_KEY_ID")),
  awsSecretAccessKey: Config.option(Config.Redacted("AWS_SECRET_ACCESS_KEY")),
  awsSessionToken: Config.option(Config.Redacted("AWS_SESSION_TOKEN"))
})
export type CloudVariables = typeof cloudVariables extends Config.Config<infer A> ? A : never
