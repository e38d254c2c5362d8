import { assert, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { ApiKeys } from "../../src/auth/ApiKeys.ts"
import * as Database from "../../src/store/Database.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"

describePostgres("ApiKeys on Postgres", () => {
  it.live("manages and authenticates keys, timestamps intact", () =>
    withFreshSchema((schema) =>
      Effect.gen(function*() {
        const instance = () =>
          Effect.map(
            Layer.build(
              ApiKeys.layerWith({ cacheTtl: "100 millis" }).pipe(
                Layer.provide(Database.layerFromUrl(urlWithSchema(schema)))
              )
            ),
            Context.get(ApiKeys)
          )
        const server = yield* instance()
        const cli = yield* instance()

        const expiresAt = new Date(Date.now() + 86_400_000)
        const { key, secret } = yield* cli.create({
          name: "pg",
          allowedModels: ["*"],
          allowedTools: ["bash"],
          expiresAt
        })
        assert.deepStrictEqual(yield* cli.get(key.id), key)
        assert.strictEqual(key.expiresAt?.toISOString(), expiresAt.toISOString())
        assert.strictEqual((yield* server.authenticate(`Bearer ${secret}`)).id, key.id)

        yield* cli.setStatus(key.id, "revoked")
        yield* Effect.sleep("150 millis")
        const revoked = yield* Effect.flip(server.authenticate(`Bearer ${secret}`))
        assert.strictEqual(revoked.message, "Invalid or expired API key")

        const expired = yield* cli.create({
          name: "old",
          allowedModels: [],
          allowedTools: [],
          expiresAt: new Date(Date.now() - 1_000)
        })
        const rejected = yield* Effect.flip(server.authenticate(`Bearer ${expired.secret}`))
        assert.strictEqual(rejected.message, "Invalid or expired API key")

        const other = yield* cli.create({ name: "live", allowedModels: ["openai/*"], allowedTools: [] })
        const rotated = yield* cli.rotate(other.key.id)
        assert.strictEqual((yield* server.authenticate(`Bearer ${rotated.secret}`)).id, other.key.id)
        assert.strictEqual(
          (yield* Effect.flip(server.authenticate(`Bearer ${other.secret}`))).message,
          "Invalid or expired API key"
        )
        assert.deepStrictEqual((yield* cli.list()).map((k) => k.name).sort(), ["live", "old", "pg"])
      })
    ))
})
