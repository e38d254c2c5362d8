import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { loadAppConfig, tempDir, writeConfigFile } from "../../config/fixtures.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import type { ScriptedUpstream } from "../../support/upstreams/scripted.ts"
import { externalAccountCredentials, projectPath, startGoogleSts, startVertex } from "../../support/upstreams/vertex.ts"

const models = [{ id: "gemini-2.5-flash", name: "Gemini 2.5 Flash", categories: ["chat"] }]

describe("provider type vertex: Google credentials", () => {
  it.effect("project and location from the entry, else GOOGLE_VERTEX_PROJECT and GOOGLE_VERTEX_LOCATION", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          { id: "own", type: "vertex", project: "my-project", location: "europe-west4", models },
          { id: "env", type: "vertex", models },
          { id: "url", type: "vertex", baseURL: "http://127.0.0.1:9/v1/publishers/google", models }
        ]
      })
      const config = yield* loadAppConfig({
        PARLEY_CONFIG: path,
        GOOGLE_VERTEX_PROJECT: "env-project",
        GOOGLE_VERTEX_LOCATION: "us-central1"
      })
      const [own, env, url] = config.providers
      assert.deepInclude(own, { type: "vertex", project: "my-project", location: "europe-west4" })
      assert.deepInclude(env, { type: "vertex", project: "env-project", location: "us-central1" })
      for (const provider of config.providers) assert.notProperty(provider, "apiKey")
      assert.strictEqual(url!.baseURL, "http://127.0.0.1:9/v1/publishers/google")
    }))

  it.effect("without a key, a project and a location are start problems, as are a key with them", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          { id: "a", type: "vertex", models },
          { id: "b", type: "vertex", apiKey: "k", project: "p", models },
          {
            id: "t",
            type: "vertex",
            apiKey: "k",
            models: [...models, { id: "endpoints/42", name: "T", categories: [] }]
          },
          { id: "c", type: "google", apiKey: "k", location: "us-central1" }
        ]
      })
      const error = yield* Effect.flip(loadAppConfig({ PARLEY_CONFIG: path }))
      assert.include(error.message, "providers[0]: project is required for type vertex with Google credentials")
      assert.include(error.message, "providers[0]: location is required for type vertex with Google credentials")
      assert.include(error.message, "providers[1]: project and location are for Google credentials")
      assert.include(error.message, "providers[2].models[1].id: a tuned model's endpoint takes Google credentials")
      assert.include(error.message, "providers[3].location: only for type vertex")
      const badLocation = yield* Effect.flip(loadAppConfig({
        PARLEY_CONFIG: writeConfigFile({ providers: [{ id: "a", type: "vertex", project: "p", models }] }),
        GOOGLE_VERTEX_LOCATION: "us-central1.evil.example"
      }))
      assert.include(
        badLocation.message,
        "GOOGLE_VERTEX_LOCATION \"us-central1.evil.example\" is not a Google Cloud location"
      )
    }))

  it.effect("GOOGLE_VERTEX_PROJECT with GOOGLE_VERTEX_LOCATION adds provider vertex; either alone adds nothing", () =>
    Effect.gen(function*() {
      const both = yield* loadAppConfig({ GOOGLE_VERTEX_PROJECT: "p", GOOGLE_VERTEX_LOCATION: "global" })
      assert.deepStrictEqual(both.providers.map((p) => [p.id, p.type, p.models.length]), [["vertex", "vertex", 0]])
      assert.deepInclude(both.providers[0], { project: "p", location: "global" })
      const alone = yield* loadAppConfig({ GOOGLE_VERTEX_PROJECT: "p" })
      assert.deepStrictEqual(alone.providers, [])
    }))
})

describe("provider type vertex: Google credentials end to end", () => {
  const ACCESS_TOKEN = "ya29.parley-test-access-token-0123456789"
  let sts: Awaited<ReturnType<typeof startGoogleSts>>
  let upstream: ScriptedUpstream
  let gateway: TestGateway
  let secret: string
  const previous = process.env.GOOGLE_APPLICATION_CREDENTIALS

  beforeAll(async () => {
    sts = await startGoogleSts(ACCESS_TOKEN)
    upstream = await startVertex(ACCESS_TOKEN, projectPath("parley-test", "us-central1"))
    const dir = tempDir()
    writeFileSync(join(dir, "subject-token"), "eyJhbGciOiJSUzI1NiJ9.subject.token")
    const credentials = join(dir, "credentials.json")
    writeFileSync(credentials, JSON.stringify(externalAccountCredentials(sts.url, join(dir, "subject-token"))))
    // Application Default Credentials: google-auth-library reads this itself, as on any Google Cloud host.
    process.env.GOOGLE_APPLICATION_CREDENTIALS = credentials
    const config = await Effect.runPromise(loadAppConfig({
      PARLEY_CONFIG: writeConfigFile({
        providers: [{
          id: "v",
          type: "vertex",
          project: "parley-test",
          location: "us-central1",
          baseURL: upstream.url,
          models
        }]
      })
    }))
    gateway = await startGateway({ providers: config.providers })
    ;({ secret } = await gateway.createKey())
  })
  afterAll(async () => {
    if (previous === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS
    else process.env.GOOGLE_APPLICATION_CREDENTIALS = previous
    await gateway.close()
    await Promise.all([upstream.close(), sts.close()])
  })

  it("signs in through ADC and sends the access token on the project's path, stream and JSON", async () => {
    upstream.enqueue({ type: "text", text: "Streamed on Vertex." }, { type: "text", text: "Whole on Vertex." })
    const streamed = await postJson(`${gateway.url}/api/v1/chat`, {
      model: "v/gemini-2.5-flash",
      messages: [{ role: "user", content: "hi" }],
      stream: true
    }, bearer(secret))
    expect(streamed.status).toBe(200)
    expect(await streamed.text()).toContain("Vertex.")
    const whole = await postJson(`${gateway.url}/api/v1/chat`, {
      model: "v/gemini-2.5-flash",
      messages: [{ role: "user", content: "hi" }],
      stream: false
    }, bearer(secret))
    expect(whole.status).toBe(200)
    expect(JSON.stringify(await whole.json())).toContain("Whole on Vertex.")
    // parley streams from the provider for a JSON answer too.
    const path = `${projectPath("parley-test", "us-central1")}/models/gemini-2.5-flash:streamGenerateContent`
    expect(upstream.requests.map((request) => [request.path, request.headers.authorization])).toEqual([
      [path, `Bearer ${ACCESS_TOKEN}`],
      [path, `Bearer ${ACCESS_TOKEN}`]
    ])
    expect(upstream.requests.every((request) => request.headers["x-goog-api-key"] === undefined)).toBe(true)
    // The subject token went to the exchange once; the access token it gave was cached for the second request.
    expect(sts.exchanges.map((form) => form.get("subject_token"))).toEqual(["eyJhbGciOiJSUzI1NiJ9.subject.token"])
  })
})
