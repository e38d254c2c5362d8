import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { durationMs } from "../../src/config/RouteConfig.ts"
import { loadAppConfig, writeConfigFile } from "./fixtures.ts"

const local = (id: string) => ({
  id,
  type: "openai-compatible",
  baseURL: "http://127.0.0.1:9100/v1",
  models: [{ id: "m1", name: "M1", categories: ["chat"] }]
})

const route = (models: ReadonlyArray<unknown>, id = "smart") => ({ id, type: "route", models })

const problemsOf = (content: unknown, env: Record<string, string> = {}) => {
  const path = writeConfigFile(content)
  return loadAppConfig({ PARLEY_CONFIG: path, ...env }).pipe(
    Effect.flip,
    Effect.map((error) => ({ path, lines: error.message.split("\n") }))
  )
}

describe("route providers (docs/DESIGN.md §15)", () => {
  it.effect("a route's models become routes over the other providers' models, an environment shortcut's included", () =>
    Effect.gen(function*() {
      const path = writeConfigFile({
        providers: [
          route([{
            id: "fast",
            strategy: "loadbalance",
            targets: [{ model: "a/m1", weight: 2 }, { model: "openai/gpt-4o-mini" }],
            firstChunkTimeout: "1.5s"
          }, { id: "safe", strategy: "fallback", targets: [{ model: "b/m1" }] }]),
          local("a"),
          local("b")
        ]
      })
      const config = yield* loadAppConfig({ PARLEY_CONFIG: path, OPENAI_API_KEY: "sk-test" })
      assert.deepStrictEqual(config.routes, [
        {
          id: "smart/fast",
          provider: "smart",
          strategy: "loadbalance",
          targets: [{ model: "a/m1", weight: 2 }, { model: "openai/gpt-4o-mini", weight: 1 }],
          firstChunkTimeoutMs: 1500
        },
        {
          id: "smart/safe",
          provider: "smart",
          strategy: "fallback",
          targets: [{ model: "b/m1", weight: 1 }],
          firstChunkTimeoutMs: undefined
        }
      ])
      // A route is no provider of models: none is built for it.
      assert.deepStrictEqual(config.providers.map((provider) => provider.id), ["a", "b", "openai"])
    }))

  it.effect("names every route problem at once, each at its place in the file, with the providers' own", () =>
    Effect.gen(function*() {
      const { lines, path } = yield* problemsOf({
        providers: [
          local("a"),
          route([
            { id: "r1", strategy: "fallback", targets: [{ model: "a/nope" }, { model: "other/m1" }] },
            { id: "r2", strategy: "fallback", targets: [{ model: "smart/r1" }], firstChunkTimeout: "5 parsecs" }
          ]),
          route([{ id: "x", strategy: "roundrobin", targets: [] }], "bad"),
          route([{ id: "y", strategy: "loadbalance", targets: [{ model: "a/m1", weight: 0 }], extra: 1 }], "worse"),
          { ...local("b"), baseURL: 3 }
        ]
      })
      const expected = [
        `${path}: providers[2].models[0].strategy: Expected "fallback" | "loadbalance"`,
        `${path}: providers[2].models[0].targets: Expected a value with a length of at least 1`,
        `${path}: providers[3].models[0].targets[0].weight: Expected a value greater than 0`,
        `${path}: providers[3].models[0].extra: unknown field`,
        `${path}: providers[4].baseURL: Expected string`
      ]
      for (const line of expected) assert.include(lines, line)
      // The targets are checked once the file decodes: a fixed file shows them next.
      const next = yield* problemsOf({
        providers: [
          local("a"),
          route([
            { id: "r1", strategy: "fallback", targets: [{ model: "a/nope" }, { model: "other/m1" }] },
            { id: "r2", strategy: "fallback", targets: [{ model: "smart/r1" }], firstChunkTimeout: "5 parsecs" },
            { id: "r2", strategy: "fallback", targets: [{ model: "a/m1" }] }
          ]),
          route([{ id: "z", strategy: "fallback", targets: [{ model: "a/m1" }] }], "a")
        ]
      })
      const at = `${next.path}: providers[1].models`
      assert.deepStrictEqual(next.lines, [
        `${at}[0].targets[0].model: unknown model "a/nope" (give <provider>/<model> of a configured provider)`,
        `${at}[0].targets[1].model: unknown model "other/m1" (give <provider>/<model> of a configured provider)`,
        `${at}[1].targets[0].model: "smart/r1" is a route; a route targets providers' models`,
        `${at}[1].firstChunkTimeout: "5 parsecs" is not a duration (a positive number with ms, s or m: "5s")`,
        `${at}[2].id: duplicate model id "r2"`,
        `${next.path}: providers[2].id: duplicate provider id "a"`
      ])
    }))

  it("reads durations in ms, s and m, nothing else", () => {
    assert.strictEqual(durationMs("5s"), 5000)
    assert.strictEqual(durationMs("800ms"), 800)
    assert.strictEqual(durationMs("1.5m"), 90_000)
    assert.strictEqual(durationMs("1.0004s"), 1000)
    for (const bad of ["5", "0s", "0.2ms", "-1s", "5h", "s", ""]) assert.strictEqual(durationMs(bad), undefined, bad)
  })
})
