import { Option, type Redacted } from "effect"
import {
  type AwsCredentials,
  DNS_LABEL,
  type ProviderConfig,
  type ProviderEntry,
  type ProviderTimeouts
} from "./ProviderConfig.ts"
import type { CloudVariables } from "./providerKeys.ts"

/** What every type's entry resolves to: its id, models, timeouts, and the key when one was given or found. */
interface Resolved {
  readonly id: string
  readonly models: ProviderConfig["models"]
  readonly timeouts?: ProviderTimeouts
  readonly apiKey?: Redacted.Redacted<string>
}

/** A provider, or what is wrong with the entry, each line starting with the field it is about. */
export type Outcome = ProviderConfig | ReadonlyArray<string>

export const isProblems = (outcome: Outcome): outcome is ReadonlyArray<string> => Array.isArray(outcome)

const baseURLOf = (entry: ProviderEntry) => entry.baseURL === undefined ? {} : { baseURL: entry.baseURL }

/**
 * `vertex`: with an API key (express mode) the package sends every request
 * to `aiplatform.googleapis.com/v1/publishers/google`, which names no
 * project; without one it signs in with Google credentials (ADC) for
 * `project` in `location`, which then must be known unless `baseURL` says
 * where to go (docs/DESIGN.md §15).
 */
const vertex = (entry: ProviderEntry, resolved: Resolved, env: CloudVariables): Outcome => {
  const provider = { ...resolved, type: "vertex" as const, ...baseURLOf(entry) }
  if (resolved.apiKey !== undefined) {
    // The package throws building such a model rather than at a request: caught here, it is a problem like the others.
    const tuned = (entry.models ?? []).findIndex((model) => model.id.startsWith("endpoints/"))
    const problems = [
      ...(entry.project === undefined && entry.location === undefined ? [] : [
        ": project and location are for Google credentials: an API key (express mode) names neither; give baseURL for another endpoint"
      ]),
      ...(tuned === -1
        ? []
        : [`.models[${tuned}].id: a tuned model's endpoint takes Google credentials, not an API key`])
    ]
    return problems.length === 0 ? provider : problems
  }
  const project = entry.project ?? Option.getOrUndefined(env.vertexProject)
  const location = entry.location ?? Option.getOrUndefined(env.vertexLocation)
  const problems: Array<string> = []
  if (location !== undefined && !DNS_LABEL.test(location)) {
    problems.push(`: GOOGLE_VERTEX_LOCATION "${location}" is not a Google Cloud location (letters, digits and hyphens)`)
  }
  if (entry.baseURL === undefined) {
    const orKey = "(or give an API key: apiKey, apiKeyEnv or GOOGLE_VERTEX_API_KEY)"
    if (project === undefined) {
      problems.push(
        `: project is required for type vertex with Google credentials, or set GOOGLE_VERTEX_PROJECT ${orKey}`
      )
    }
    if (location === undefined) {
      problems.push(
        `: location is required for type vertex with Google credentials, or set GOOGLE_VERTEX_LOCATION ${orKey}`
      )
    }
  }
  if (problems.length > 0) return problems
  return {
    ...provider,
    ...(project === undefined ? {} : { project }),
    ...(location === undefined ? {} : { location })
  }
}

/**
 * `bedrock`: a Bedrock API key (bearer) or SigV4 credentials, the entry's
 * own first (either kind, not both), then the environment's: the key
 * (`AWS_BEARER_TOKEN_BEDROCK`, as the package prefers it), else the access
 * key pair. The region always, since SigV4 signs it and it names the host.
 */
const bedrock = (entry: ProviderEntry, resolved: Resolved, env: CloudVariables): Outcome => {
  const problems: Array<string> = []
  const region = entry.region ?? Option.getOrUndefined(env.awsRegion)
  if (region === undefined) problems.push(": region is required for type bedrock, or set AWS_REGION")
  else if (!DNS_LABEL.test(region)) {
    problems.push(`: AWS_REGION "${region}" is not an AWS region (letters, digits and hyphens)`)
  }
  const ownKey = entry.apiKey !== undefined || entry.apiKeyEnv !== undefined
  const ownSigning = entry.accessKeyId !== undefined || entry.secretAccessKey !== undefined ||
    entry.sessionToken !== undefined
  let credentials: AwsCredentials | undefined
  if (ownSigning) {
    if (ownKey) {
      problems.push(": give apiKey or apiKeyEnv (a Bedrock API key), or accessKeyId and secretAccessKey, not both")
    }
    if (entry.accessKeyId === undefined || entry.secretAccessKey === undefined) {
      problems.push(": accessKeyId and secretAccessKey go together")
    } else {
      credentials = {
        accessKeyId: entry.accessKeyId,
        secretAccessKey: entry.secretAccessKey,
        ...(entry.sessionToken === undefined ? {} : { sessionToken: entry.sessionToken })
      }
    }
  } else if (resolved.apiKey === undefined) {
    const [id, secret] = [env.awsAccessKeyId, env.awsSecretAccessKey]
    if (Option.isSome(id) && Option.isSome(secret)) {
      credentials = {
        accessKeyId: id.value,
        secretAccessKey: secret.value,
        ...Option.match(env.awsSessionToken, { onNone: () => ({}), onSome: (sessionToken) => ({ sessionToken }) })
      }
    } else if (Option.isSome(id) || Option.isSome(secret)) {
      problems.push(": AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both")
    } else {
      problems.push(
        ": credentials are required for type bedrock: apiKey or apiKeyEnv (a Bedrock API key), or accessKeyId and secretAccessKey; or set AWS_BEARER_TOKEN_BEDROCK, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
      )
    }
  }
  if (problems.length > 0 || region === undefined) return problems
  // Signing with the entry's own pair wins over a key found in the environment.
  const { apiKey, ...rest } = resolved
  return {
    ...rest,
    type: "bedrock",
    region,
    ...baseURLOf(entry),
    ...(credentials === undefined ? { apiKey: apiKey! } : { credentials })
  }
}

/**
 * `vertex` and `bedrock`: the types whose requests need more than a key, and whose entries list their models
 * (what an account may call depends on its region's inference profiles or project: docs/DESIGN.md §15).
 */
export const cloudProvider = (
  entry: ProviderEntry & { readonly type: "vertex" | "bedrock" },
  resolved: Resolved,
  env: CloudVariables
): Outcome => {
  const outcome = (entry.type === "vertex" ? vertex : bedrock)(entry, resolved, env)
  if (entry.models !== undefined) return outcome
  const missing =
    `.models: required for type ${entry.type}: list the models to offer (which ones an account may call depends on its region or project)`
  return [missing, ...(isProblems(outcome) ? outcome : [])]
}

export const isCloudType = (type: ProviderEntry["type"]): type is "vertex" | "bedrock" =>
  type === "vertex" || type === "bedrock"
