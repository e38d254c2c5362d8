import { type Redacted, Schema } from "effect"
import { TokenizerName } from "../domain/TokenizerName.ts"
import { McpServerEntry } from "./McpServerConfig.ts"

/** The provider kinds parley can build AI SDK models for, each through its AI SDK provider package (docs/DESIGN.md §15). */
export const ProviderType = Schema.Literals([
  "openai",
  "openai-compatible",
  "anthropic",
  "google",
  "vertex",
  "azure",
  "bedrock",
  "mistral",
  "groq",
  "xai",
  "deepseek"
])
export type ProviderType = typeof ProviderType.Type

/** The types whose AI SDK package has a conventional key variable and whose models the model catalog knows: all but `openai-compatible`. */
export type VendorProviderType = Exclude<ProviderType, "openai-compatible">

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0))
const UsdPerMTok = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))

/** What a model costs, in USD per million tokens; the usage ledger prices each request with it (docs/DESIGN.md §7). */
export const ModelPricing = Schema.Struct({
  inputPerMTok: UsdPerMTok,
  outputPerMTok: UsdPerMTok,
  /** Cached input tokens read; absent: they cost as much as other input. */
  cachedInputPerMTok: Schema.optionalKey(UsdPerMTok)
})
export type ModelPricing = typeof ModelPricing.Type

/**
 * One of an entry's `models`, as written: what it gives wins over the model
 * catalog's data, which fills the rest (docs/DESIGN.md §15).
 */
export const ModelEntry = Schema.Struct({
  id: Schema.NonEmptyString,
  /** Absent: the catalog's name, else the id. */
  name: Schema.optionalKey(Schema.NonEmptyString),
  /** Absent: `["chat"]`. */
  categories: Schema.optionalKey(Schema.Array(Schema.String)),
  contextWindow: Schema.optionalKey(PositiveInt),
  maxOutputTokens: Schema.optionalKey(PositiveInt),
  tokenizer: Schema.optionalKey(TokenizerName),
  /** Replaces the catalog's prices as a whole: a negotiated rate is not mixed with list prices. */
  pricing: Schema.optionalKey(ModelPricing)
})
export type ModelEntry = typeof ModelEntry.Type

/** A model as the gateway offers it: its entry with the catalog's data filled in. */
export type ModelConfig = ModelEntry & { readonly name: string; readonly categories: ReadonlyArray<string> }

/** A host name's label: Azure resources, Vertex locations and AWS regions become one. */
export const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i

/** Model ids read `<provider>/<model>`, so a provider id holds no slash. */
const ProviderId = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/))

/** One entry of the config file's `providers` array, as written. */
export const ProviderEntry = Schema.Struct({
  id: ProviderId,
  type: ProviderType,
  baseURL: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^https?:\/\/\S+$/))),
  apiKey: Schema.optionalKey(Schema.RedactedFromValue(Schema.NonEmptyString)),
  /** Name of an environment variable holding the key, so the file itself needs no secret. */
  apiKeyEnv: Schema.optionalKey(Schema.NonEmptyString),
  /** `azure` only: the Azure resource (`https://{resourceName}.openai.azure.com/openai/v1`); else `baseURL`, else `AZURE_RESOURCE_NAME`. */
  resourceName: Schema.optionalKey(Schema.String.check(Schema.isPattern(DNS_LABEL))),
  /** `azure` only: the `api-version` query parameter; default the package's (`v1`). */
  apiVersion: Schema.optionalKey(Schema.NonEmptyString),
  /** `vertex` with Google credentials: the Google Cloud project; else `GOOGLE_VERTEX_PROJECT`. */
  project: Schema.optionalKey(Schema.NonEmptyString),
  /** `vertex` with Google credentials: the region (`us-central1`, `global`); else `GOOGLE_VERTEX_LOCATION`. */
  location: Schema.optionalKey(Schema.String.check(Schema.isPattern(DNS_LABEL))),
  /** `bedrock` only: the AWS region (`us-east-1`); else `AWS_REGION`. */
  region: Schema.optionalKey(Schema.String.check(Schema.isPattern(DNS_LABEL))),
  /** `bedrock` only: SigV4 credentials; else `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`. */
  accessKeyId: Schema.optionalKey(Schema.RedactedFromValue(Schema.NonEmptyString)),
  secretAccessKey: Schema.optionalKey(Schema.RedactedFromValue(Schema.NonEmptyString)),
  sessionToken: Schema.optionalKey(Schema.RedactedFromValue(Schema.NonEmptyString)),
  /**
   * Required for `openai-compatible`, `vertex` and `bedrock` (Bedrock's ids depend on the region's inference
   * profiles, Vertex's on the project); optional for the other types (the model catalog's list is used).
   */
  models: Schema.optionalKey(Schema.Array(ModelEntry)),
  /** How long the provider may take to start answering (its response headers); default 60 000. */
  firstByteTimeoutMs: Schema.optionalKey(PositiveInt),
  /** How long a streamed answer may pause between chunks; default 60 000. */
  idleTimeoutMs: Schema.optionalKey(PositiveInt),
  /** How long a non-streamed answer may take to arrive, its headers coming with it; default 600 000. */
  answerTimeoutMs: Schema.optionalKey(PositiveInt)
})
export type ProviderEntry = typeof ProviderEntry.Type

export const ConfigFileContent = Schema.Struct({
  providers: Schema.Array(ProviderEntry),
  /** MCP servers whose tools keys may be given (docs/DESIGN.md §9). */
  mcpServers: Schema.optionalKey(Schema.Array(McpServerEntry))
})

/**
 * How long a provider may stay silent before the call counts as failed
 * (transient: retried before anything was streamed) (docs/DESIGN.md §3.21).
 */
export interface ProviderTimeouts {
  readonly firstByteMs: number
  readonly idleMs: number
  /** A whole (non-streamed) answer: the provider sends nothing until all of it is written, so it gets longer. */
  readonly answerMs: number
}

export const DEFAULT_PROVIDER_TIMEOUTS: ProviderTimeouts = { firstByteMs: 60_000, idleMs: 60_000, answerMs: 600_000 }

interface ResolvedProvider {
  readonly id: string
  readonly apiKey?: Redacted.Redacted<string>
  readonly models: ReadonlyArray<ModelConfig>
  /** Absent: `DEFAULT_PROVIDER_TIMEOUTS`. */
  readonly timeouts?: ProviderTimeouts
}

/** A provider ready to build models from: key resolved, catalog filled in. */
export type ProviderConfig =
  | ResolvedProvider & { readonly type: "openai-compatible"; readonly baseURL: string }
  | ResolvedProvider & {
    readonly type: Exclude<VendorProviderType, "azure" | "vertex" | "bedrock">
    readonly baseURL?: string
  }
  | ResolvedProvider & {
    readonly type: "azure"
    readonly baseURL?: string
    readonly resourceName?: string
    readonly apiVersion?: string
  }
  /** Without `apiKey` (express mode), Google credentials (ADC) for `project` in `location`. */
  | ResolvedProvider & {
    readonly type: "vertex"
    readonly baseURL?: string
    readonly project?: string
    readonly location?: string
  }
  /** Without `apiKey` (a Bedrock API key, sent as a bearer token), SigV4-signed with `credentials`. */
  | ResolvedProvider & {
    readonly type: "bedrock"
    readonly baseURL?: string
    readonly region: string
    readonly credentials?: AwsCredentials
  }

/** What SigV4 signs a Bedrock request with. */
export interface AwsCredentials {
  readonly accessKeyId: Redacted.Redacted<string>
  readonly secretAccessKey: Redacted.Redacted<string>
  readonly sessionToken?: Redacted.Redacted<string>
}
