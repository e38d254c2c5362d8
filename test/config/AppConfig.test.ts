import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { realpathSync } from "node:fs"
import { hostname } from "node:os"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { loadAppConfig, tempDir, writeConfigFile } from "./fixtures.ts"

const idsOf = (config: AppConfig["Service"]) => config.providers.map((p) => p.id)

describe("AppConfig", () => {
  it.effect("uses the documented defaults when nothing is set", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({})
      assert.strictEqual(config.host, "127.0.0.1")
      assert.strictEqual(config.port, 8787)
      assert.strictEqual(config.bodyLimitBytes, 10 * 1024 * 1024)
      assert.deepStrictEqual(config.providers, [])
      assert.isUndefined(config.configFile)
      assert.strictEqual(config.fetchMaxBytes, 20 * 1024 * 1024)
      assert.strictEqual(config.fetchTimeoutMs, 30_000)
    }))

  it.effect("reads PARLEY_FETCH_MAX_BYTES (plain bytes or with a unit) and PARLEY_FETCH_TIMEOUT", () =>
    Effect.gen(function*() {
      const plain = yield* loadAppConfig({ PARLEY_FETCH_MAX_BYTES: "4096", PARLEY_FETCH_TIMEOUT: "5 seconds" })
      assert.strictEqual(plain.fetchMaxBytes, 4096)
      assert.strictEqual(plain.fetchTimeoutMs, 5_000)
      const withUnit = yield* loadAppConfig({ PARLEY_FETCH_MAX_BYTES: "1MiB" })
      assert.strictEqual(withUnit.fetchMaxBytes, 1024 * 1024)
    }))

  it.effect("reads the admin token, the secret key and introspection; the data folder follows the database", () =>
    Effect.gen(function*() {
      const unset = yield* loadAppConfig({ DATABASE_URL: "sqlite:/srv/parley/db/parley.db" })
      assert.deepStrictEqual([unset.adminToken, unset.secretKey, unset.introspectionUrl], [
        undefined,
        undefined,
        undefined
      ])
      assert.strictEqual(unset.dataDir, "/srv/parley/db")
      const key = Buffer.alloc(32, 7).toString("base64")
      const set = yield* loadAppConfig({
        PARLEY_ADMIN_TOKEN: "op-token",
        PARLEY_SECRET_KEY: key,
        PARLEY_AUTH_INTROSPECTION_URL: "https://idp.example/introspect",
        PARLEY_AUTH_INTROSPECTION_TOKEN: "idp-token",
        DATABASE_URL: "postgres://db/parley"
      })
      assert.strictEqual(Redacted.value(set.adminToken!), "op-token")
      assert.strictEqual(Redacted.value(set.secretKey!), key)
      assert.strictEqual(set.introspectionUrl, "https://idp.example/introspect")
      assert.strictEqual(Redacted.value(set.introspectionToken!), "idp-token")
      assert.match(set.dataDir, /\/data$/)
      // Redacted: printing the configuration shows no secret.
      assert.notInclude(String(set.adminToken), "op-token")
    }))

  it.effect("reads HOST, PORT and PARLEY_BODY_LIMIT (plain bytes or with a unit)", () =>
    Effect.gen(function*() {
      const plain = yield* loadAppConfig({ HOST: "0.0.0.0", PORT: "9001", PARLEY_BODY_LIMIT: "2048" })
      assert.strictEqual(plain.host, "0.0.0.0")
      assert.strictEqual(plain.port, 9001)
      assert.strictEqual(plain.bodyLimitBytes, 2048)
      const withUnit = yield* loadAppConfig({ PARLEY_BODY_LIMIT: "2MiB" })
      assert.strictEqual(withUnit.bodyLimitBytes, 2 * 1024 * 1024)
    }))

  it.effect.each([
    { env: { PORT: "http" }, name: "PORT" },
    { env: { PORT: "70000" }, name: "PORT" },
    { env: { PARLEY_BODY_LIMIT: "lots" }, name: "PARLEY_BODY_LIMIT" },
    { env: { PARLEY_FETCH_MAX_BYTES: "0" }, name: "PARLEY_FETCH_MAX_BYTES" },
    { env: { PARLEY_FETCH_TIMEOUT: "soon" }, name: "PARLEY_FETCH_TIMEOUT" },
    { env: { PARLEY_KEY_CACHE_TTL: "soon" }, name: "PARLEY_KEY_CACHE_TTL" },
    { env: { PARLEY_KEY_CACHE_TTL: "10 seconds" }, name: "PARLEY_KEY_CACHE_TTL" },
    { env: { PARLEY_KEY_CACHE_TTL: "0 seconds" }, name: "PARLEY_KEY_CACHE_TTL" },
    { env: { PARLEY_SECRET_KEY: Buffer.alloc(16).toString("base64") }, name: "PARLEY_SECRET_KEY" },
    { env: { PARLEY_AUTH_INTROSPECTION_URL: "not a url" }, name: "PARLEY_AUTH_INTROSPECTION_URL" }
  ])("fails on an invalid $name", ({ env, name }) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(loadAppConfig(env))
      assert.strictEqual(error._tag, "InvalidConfiguration")
      assert.include(error.message, name)
    }))

  it.effect("takes PARLEY_INSTANCE_ID, or derives a stable one from the host and the sandbox folder", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* loadAppConfig({ PARLEY_INSTANCE_ID: "web-2.eu" })).instanceId, "web-2.eu")
      const cwd = tempDir()
      const here = (yield* loadAppConfig({}, cwd)).instanceId
      assert.match(here, new RegExp(`^${hostname().replace(/[^A-Za-z0-9._-]/g, "-")}-[0-9a-f]{8}$`))
      assert.strictEqual((yield* loadAppConfig({}, cwd)).instanceId, here)
      assert.strictEqual((yield* loadAppConfig({ PARLEY_SANDBOX_DIR: "./data/sandboxes/" }, cwd)).instanceId, here)
      assert.strictEqual((yield* loadAppConfig({ PARLEY_SANDBOX_DIR: `${cwd}/data/sandboxes` })).instanceId, here)
      // Another folder is another instance, even on this host.
      assert.notStrictEqual((yield* loadAppConfig({}, tempDir())).instanceId, here)
      const error = yield* Effect.flip(loadAppConfig({ PARLEY_INSTANCE_ID: "web 2" }))
      assert.include(error.message, "PARLEY_INSTANCE_ID")
    }))

  it.effect("reads PARLEY_KEY_CACHE_TTL, unset by default (the key service's 1 s)", () =>
    Effect.gen(function*() {
      assert.isUndefined((yield* loadAppConfig({})).keyCacheTtlMs)
      assert.strictEqual((yield* loadAppConfig({ PARLEY_KEY_CACHE_TTL: "2500 millis" })).keyCacheTtlMs, 2_500)
      assert.strictEqual((yield* loadAppConfig({ PARLEY_KEY_CACHE_TTL: "5 seconds" })).keyCacheTtlMs, 5_000)
    }))

  it.effect("adds the openai shortcut with its catalog and base URL", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({
        OPENAI_API_KEY: "sk-openai-secret",
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1"
      })
      const [openai] = config.providers
      assert.strictEqual(openai?.id, "openai")
      assert.strictEqual(openai?.type, "openai")
      assert.strictEqual(openai?.baseURL, "http://127.0.0.1:9/v1")
      assert.strictEqual(Redacted.value(openai!.apiKey!), "sk-openai-secret")
      assert.isTrue(openai!.models.length >= 3)
      for (const model of openai!.models) {
        assert.isTrue(model.name.length > 0 && model.categories.length > 0 && (model.contextWindow ?? 0) > 0)
      }
    }))

  it.effect("adds the anthropic shortcut without a base URL", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({ ANTHROPIC_API_KEY: "sk-ant-secret" })
      assert.deepStrictEqual(idsOf(config), ["anthropic"])
      assert.isUndefined(config.providers[0]!.baseURL)
      assert.isTrue(config.providers[0]!.models.some((m) => m.id.startsWith("claude-")))
    }))

  it.effect("keeps keys redacted when the configuration is printed", () =>
    Effect.gen(function*() {
      const config = yield* loadAppConfig({ OPENAI_API_KEY: "sk-openai-secret", ANTHROPIC_API_KEY: "sk-ant-secret" })
      for (
        const printed of [
          JSON.stringify(config.providers),
          String(config.providers[0]!.apiKey),
          `${config.providers[1]!.apiKey}`
        ]
      ) {
        assert.notInclude(printed, "secret")
      }
    }))

  it.effect("reads the file PARLEY_CONFIG names; its entries win over shortcuts of the same id", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          {
            id: "local",
            type: "openai-compatible",
            baseURL: "http://127.0.0.1:9100/v1",
            models: [{ id: "m1", name: "M1", categories: ["chat"] }]
          },
          {
            id: "openai",
            type: "openai",
            apiKey: "sk-from-file",
            models: [{ id: "gpt-x", name: "GPT X", categories: ["chat"] }]
          }
        ]
      })
      const config = yield* loadAppConfig({
        PARLEY_CONFIG: path,
        OPENAI_API_KEY: "sk-from-env",
        ANTHROPIC_API_KEY: "sk-ant"
      })
      assert.strictEqual(config.configFile, path)
      assert.deepStrictEqual(idsOf(config), ["local", "openai", "anthropic"])
      const openai = config.providers[1]!
      assert.strictEqual(Redacted.value(openai.apiKey!), "sk-from-file")
      assert.deepStrictEqual(openai.models.map((m) => m.id), ["gpt-x"])
    }))

  it.effect("reads ./parley.config.json from the working directory when PARLEY_CONFIG is unset", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const path = writeConfigFile({ providers: [{ id: "anthropic", type: "anthropic", apiKey: "k" }] }, dir)
      const config = yield* loadAppConfig({}, dir)
      assert.strictEqual(config.configFile, realpathSync(path))
      assert.deepStrictEqual(idsOf(config), ["anthropic"])
    }))

  it.effect("reads DATABASE_URL, defaulting to ./data/parley.db when unset or blank", () =>
    Effect.gen(function*() {
      for (const env of [{}, { DATABASE_URL: " " }]) {
        assert.strictEqual(Redacted.value((yield* loadAppConfig(env)).databaseUrl), "sqlite:./data/parley.db")
      }
      const postgres = yield* loadAppConfig({ DATABASE_URL: "postgres://parley:hunter2@db:5432/parley" })
      assert.strictEqual(Redacted.value(postgres.databaseUrl), "postgres://parley:hunter2@db:5432/parley")
      assert.notInclude(String(postgres.databaseUrl), "hunter2")
    }))

  it.effect("reads the PARLEY_SANDBOX_* settings, leaving out what is unset", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual((yield* loadAppConfig({})).sandbox, { limits: {} })
      const config = yield* loadAppConfig({
        PARLEY_SANDBOX_DIR: "/srv/sandboxes",
        PARLEY_SANDBOX_MEMORY: "512MiB",
        PARLEY_SANDBOX_PROCESSES: "64",
        PARLEY_SANDBOX_CPU_SECONDS: "30",
        PARLEY_SANDBOX_DISPLAY: "1280x800",
        PARLEY_SANDBOX_DISK: "2GiB",
        PARLEY_SANDBOX_CONCURRENCY: "4",
        PARLEY_SANDBOX_BACKEND: "docker",
        PARLEY_SANDBOX_IMAGE: "registry.example/sandbox:7",
        PARLEY_SANDBOX_CPUS: "1.5",
        PARLEY_SANDBOX_IDLE: "2h",
        DOCKER_HOST: "tcp://engine.internal:2376",
        DOCKER_TLS_VERIFY: "1",
        DOCKER_CERT_PATH: "/etc/parley/engine"
      })
      assert.deepStrictEqual(config.sandbox, {
        backend: "docker",
        image: "registry.example/sandbox:7",
        engine: { host: "tcp://engine.internal:2376", tlsVerify: true, certPath: "/etc/parley/engine" },
        idleMs: 2 * 3_600_000,
        root: "/srv/sandboxes",
        limits: {
          memoryBytes: 512 * 1024 * 1024,
          diskBytes: 2 * 1024 ** 3,
          commandsAtOnce: 4,
          processes: 64,
          cpuSeconds: 30,
          cpus: 1.5
        },
        display: { width: 1280, height: 800 }
      })
      // The docker CLI's default engine when only DOCKER_TLS_VERIFY is set; 0: never reclaimed.
      assert.deepStrictEqual((yield* loadAppConfig({ DOCKER_TLS_VERIFY: "1", PARLEY_SANDBOX_IDLE: "0" })).sandbox, {
        engine: { host: "unix:///var/run/docker.sock", tlsVerify: true },
        idleMs: 0,
        limits: {}
      })
      for (const [name, value] of [["PARLEY_SANDBOX_BACKEND", "k8s"], ["PARLEY_SANDBOX_CPUS", "0"]] as const) {
        const error = yield* Effect.flip(loadAppConfig({ [name]: value }))
        assert.include(error.message, name)
      }
      assert.strictEqual(
        (yield* loadAppConfig({ PARLEY_SANDBOX_MEMORY: "1048576" })).sandbox.limits.memoryBytes,
        1048576
      )
      // 0: workspaces as plain folders, without a cap.
      assert.strictEqual((yield* loadAppConfig({ PARLEY_SANDBOX_DISK: "0" })).sandbox.limits.diskBytes, 0)
    }))

  it.effect("reads PARLEY_TOOL_CONCURRENCY, unset by default", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* loadAppConfig({})).toolConcurrency, undefined)
      assert.strictEqual((yield* loadAppConfig({ PARLEY_TOOL_CONCURRENCY: "3" })).toolConcurrency, 3)
    }))

  it.effect.each([
    { env: { PARLEY_SANDBOX_MEMORY: "plenty" }, name: "PARLEY_SANDBOX_MEMORY" },
    { env: { PARLEY_SANDBOX_PROCESSES: "0" }, name: "PARLEY_SANDBOX_PROCESSES" },
    { env: { PARLEY_SANDBOX_DISPLAY: "big" }, name: "PARLEY_SANDBOX_DISPLAY" },
    { env: { PARLEY_SANDBOX_DISK: "-1" }, name: "PARLEY_SANDBOX_DISK" },
    { env: { PARLEY_SANDBOX_CONCURRENCY: "0" }, name: "PARLEY_SANDBOX_CONCURRENCY" },
    { env: { PARLEY_TOOL_CONCURRENCY: "many" }, name: "PARLEY_TOOL_CONCURRENCY" }
  ])("fails on an invalid $name", ({ env, name }) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(loadAppConfig(env))
      assert.strictEqual(error._tag, "InvalidConfiguration")
      assert.include(error.message, name)
    }))

  it.effect("reads PARLEY_SHUTDOWN_GRACE (30s by default, short or long forms) and PARLEY_CORS_ORIGINS (off by default)", () =>
    Effect.gen(function*() {
      const defaults = yield* loadAppConfig({})
      assert.deepStrictEqual(defaults.operations, { shutdownGraceMs: 30_000, corsOrigins: [] })
      const grace = (value: string) =>
        Effect.map(loadAppConfig({ PARLEY_SHUTDOWN_GRACE: value }), (config) => config.operations.shutdownGraceMs)
      assert.deepStrictEqual(
        [yield* grace("30s"), yield* grace("500ms"), yield* grace("2m"), yield* grace("10"), yield* grace("5 seconds")],
        [30_000, 500, 120_000, 10_000, 5_000]
      )
      const cors = yield* loadAppConfig({ PARLEY_CORS_ORIGINS: "https://App.example, http://localhost:5173," })
      assert.deepStrictEqual(cors.operations.corsOrigins, ["https://app.example", "http://localhost:5173"])
      const bad = yield* Effect.flip(
        loadAppConfig({ PARLEY_SHUTDOWN_GRACE: "soon", PARLEY_CORS_ORIGINS: "app.example/" })
      )
      assert.strictEqual(bad.problems.length, 2)
      assert.match(bad.problems[0]!, /^PARLEY_SHUTDOWN_GRACE: .*30s/)
      assert.match(bad.problems[1]!, /^PARLEY_CORS_ORIGINS: "app.example\/" is not an origin/)
    }))

  it.effect("reads PARLEY_RESPONSE_RETENTION (30d by default) as the other durations, days in the short form too", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* loadAppConfig({})).responseRetentionMs, 30 * 86_400_000)
      const retention = (value: string) =>
        Effect.map(loadAppConfig({ PARLEY_RESPONSE_RETENTION: value }), (config) => config.responseRetentionMs)
      assert.deepStrictEqual(
        [yield* retention("7d"), yield* retention("12h"), yield* retention("2 days"), yield* retention("90")],
        [7 * 86_400_000, 12 * 3_600_000, 2 * 86_400_000, 90_000]
      )
      const bad = yield* Effect.flip(loadAppConfig({ PARLEY_RESPONSE_RETENTION: "a month" }))
      assert.match(bad.problems[0]!, /^PARLEY_RESPONSE_RETENTION: .*30d/)
    }))

  it.effect("layerTest gives fixed settings with overrides", () =>
    Effect.gen(function*() {
      const config = yield* AppConfig
      assert.strictEqual(config.port, 0)
      assert.strictEqual(config.bodyLimitBytes, 512)
      assert.strictEqual(Redacted.value(config.databaseUrl), "sqlite::memory:")
      assert.deepStrictEqual(config.sandbox, { limits: {} })
    }).pipe(Effect.provide(AppConfig.layerTest({ bodyLimitBytes: 512 }))))
})
