import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { afterAll, beforeAll } from "vitest"
import type { ProviderConfig } from "../../../src/config/ProviderConfig.ts"
import { loadAppConfig, writeConfigFile } from "../../config/fixtures.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { startBedrock } from "../../support/upstreams/bedrock.ts"
import type { ScriptedUpstream } from "../../support/upstreams/scripted.ts"

const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
const models = [{ id: MODEL, name: "Claude Sonnet 4.5", categories: ["chat"] }]
// AWS's documentation example pair, and a session token as STS issues them (long, opaque).
const ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"
const SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
const SESSION_TOKEN = "IQoJb3JpZ2luX2VjEParleyTestSessionToken0123456789abcdefghijklmnop"

const signing = (provider: ProviderConfig | undefined) => {
  if (provider?.type !== "bedrock") return undefined
  const { credentials, apiKey, region } = provider
  return {
    region,
    key: apiKey === undefined ? undefined : Redacted.value(apiKey),
    accessKeyId: credentials === undefined ? undefined : Redacted.value(credentials.accessKeyId),
    secretAccessKey: credentials === undefined ? undefined : Redacted.value(credentials.secretAccessKey),
    sessionToken: credentials?.sessionToken === undefined ? undefined : Redacted.value(credentials.sessionToken)
  }
}

describe("provider type bedrock: credentials and region", () => {
  it.effect("the entry's own key pair, else the environment's Bedrock API key, else its key pair", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          {
            id: "own",
            type: "bedrock",
            region: "eu-west-1",
            accessKeyId: "AKIAOWN",
            secretAccessKey: "own-secret",
            models
          },
          { id: "env", type: "bedrock", models }
        ]
      })
      const withKey = yield* loadAppConfig({
        PARLEY_CONFIG: path,
        AWS_REGION: "us-east-1",
        AWS_BEARER_TOKEN_BEDROCK: "ABSK-env-key",
        AWS_ACCESS_KEY_ID: ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY
      })
      const [own, env] = withKey.providers
      assert.deepStrictEqual(signing(own), {
        region: "eu-west-1",
        key: undefined,
        accessKeyId: "AKIAOWN",
        secretAccessKey: "own-secret",
        sessionToken: undefined
      })
      assert.deepInclude(signing(env), { region: "us-east-1", key: "ABSK-env-key", accessKeyId: undefined })
      const pairOnly = yield* loadAppConfig({
        PARLEY_CONFIG: path,
        AWS_REGION: "us-east-1",
        AWS_ACCESS_KEY_ID: ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
        AWS_SESSION_TOKEN: SESSION_TOKEN
      })
      assert.deepStrictEqual(signing(pairOnly.providers[1]), {
        region: "us-east-1",
        key: undefined,
        accessKeyId: ACCESS_KEY_ID,
        secretAccessKey: SECRET_ACCESS_KEY,
        sessionToken: SESSION_TOKEN
      })
      // Redacted where it could be printed.
      assert.notInclude(JSON.stringify(pairOnly.providers), SECRET_ACCESS_KEY)
    }))

  it.effect("half a key pair, a key with a pair, no region, and Bedrock's settings elsewhere are start problems", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          { id: "a", type: "bedrock", accessKeyId: "AKIAOWN", models },
          {
            id: "b",
            type: "bedrock",
            region: "us-east-1",
            apiKey: "k",
            accessKeyId: "x",
            secretAccessKey: "y",
            models
          },
          { id: "c", type: "bedrock", region: "us-east-1", models },
          { id: "d", type: "anthropic", apiKey: "k", region: "us-east-1" }
        ]
      })
      const error = yield* Effect.flip(loadAppConfig({ PARLEY_CONFIG: path, AWS_ACCESS_KEY_ID: ACCESS_KEY_ID }))
      for (
        const line of [
          "providers[0]: region is required for type bedrock, or set AWS_REGION",
          "providers[0]: accessKeyId and secretAccessKey go together",
          "providers[1]: give apiKey or apiKeyEnv (a Bedrock API key), or accessKeyId and secretAccessKey, not both",
          "providers[2]: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together",
          "providers[3].region: only for type bedrock"
        ]
      ) assert.include(error.message, line)
      assert.notInclude(error.message, ACCESS_KEY_ID)
      const badRegion = yield* Effect.flip(loadAppConfig({
        PARLEY_CONFIG: writeConfigFile({ providers: [{ id: "a", type: "bedrock", apiKey: "k", models }] }),
        AWS_REGION: "us-east-1.evil.example"
      }))
      assert.include(badRegion.message, "AWS_REGION \"us-east-1.evil.example\" is not an AWS region")
    }))

  it.effect("AWS_REGION with AWS credentials adds provider bedrock; either alone adds nothing", () =>
    Effect.gen(function*() {
      const pair = { AWS_ACCESS_KEY_ID: ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY }
      const both = yield* loadAppConfig({ AWS_REGION: "us-west-2", ...pair })
      assert.deepStrictEqual(both.providers.map((p) => [p.id, p.type, p.models.length]), [["bedrock", "bedrock", 0]])
      assert.deepInclude(signing(both.providers[0]), { region: "us-west-2", accessKeyId: ACCESS_KEY_ID })
      assert.deepStrictEqual((yield* loadAppConfig({ AWS_REGION: "us-west-2" })).providers, [])
      assert.deepStrictEqual((yield* loadAppConfig(pair)).providers, [])
    }))
})

describe("provider type bedrock: SigV4 end to end", () => {
  let upstream: ScriptedUpstream
  let gateway: TestGateway
  let secret: string
  const previous = process.env.AWS_BEARER_TOKEN_BEDROCK

  beforeAll(async () => {
    upstream = await startBedrock(ACCESS_KEY_ID, { region: "eu-central-1", sessionToken: SESSION_TOKEN })
    // The package would take this over the signing pair if parley let it read the environment itself.
    process.env.AWS_BEARER_TOKEN_BEDROCK = "ABSK-not-for-this-provider"
    const config = await Effect.runPromise(loadAppConfig({
      PARLEY_CONFIG: writeConfigFile({
        providers: [{ id: "b", type: "bedrock", region: "eu-central-1", baseURL: upstream.url, models }]
      }),
      AWS_ACCESS_KEY_ID: ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      AWS_SESSION_TOKEN: SESSION_TOKEN
    }))
    gateway = await startGateway({ providers: config.providers })
    ;({ secret } = await gateway.createKey())
  })
  afterAll(async () => {
    if (previous === undefined) delete process.env.AWS_BEARER_TOKEN_BEDROCK
    else process.env.AWS_BEARER_TOKEN_BEDROCK = previous
    await gateway.close()
    await upstream.close()
  })

  const chat = (stream: boolean) =>
    postJson(`${gateway.url}/api/v1/chat`, {
      model: `b/${MODEL}`,
      messages: [{ role: "user", content: "hi" }],
      stream
    }, bearer(secret))

  it("signs each request with the pair and the session token, for the region, stream and JSON", async () => {
    upstream.enqueue({ type: "text", text: "Signed and streamed." }, { type: "text", text: "Signed and whole." })
    const streamed = await chat(true)
    expect(streamed.status).toBe(200)
    expect(await streamed.text()).toContain("streamed.")
    const whole = await chat(false)
    expect(whole.status).toBe(200)
    expect(JSON.stringify(await whole.json())).toContain("Signed and whole.")
    // The scripted Bedrock refuses what is not signed by this key id for eu-central-1 with the token.
    expect(upstream.requests.map((request) => [request.path, request.model])).toEqual([
      [`/model/${encodeURIComponent(MODEL)}/converse-stream`, MODEL],
      [`/model/${encodeURIComponent(MODEL)}/converse-stream`, MODEL]
    ])
    for (const request of upstream.requests) {
      expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\//)
      expect(JSON.stringify(request.headers)).not.toContain(SECRET_ACCESS_KEY)
    }
  })

  it("a refusal quoting the credentials is a 500 without them", async () => {
    upstream.enqueue({
      type: "error",
      status: 403,
      message: `User with access key ${ACCESS_KEY_ID} and token ${SESSION_TOKEN} is not authorized`
    })
    const refused = await chat(false)
    expect(refused.status).toBe(500)
    const body = JSON.stringify(await refused.json())
    expect(body).toContain("is not authorized")
    expect(body).not.toContain(ACCESS_KEY_ID)
    expect(body).not.toContain(SESSION_TOKEN)
  })
})
