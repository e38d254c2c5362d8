import { Context, Effect, Layer, Redacted, type Scope } from "effect"
import { createClient } from "redis"
import { AppConfig } from "../config/AppConfig.ts"

/**
 * One connection to Redis (`REDIS_URL`) per instance, for every shared
 * counter (docs/DESIGN.md §11), closed with the instance. It names itself
 * `parley:<instance>` so `CLIENT LIST` tells the instances apart; a
 * subscription (the stops of kept runs, §16) has one more, `parley:<instance>:subscriber`.
 */
export class RedisConnection extends Context.Service<RedisConnection, {
  /** Runs a Lua script: one atomic step in Redis. A lost connection is a defect, as a lost SQL store is. */
  readonly run: (
    script: string,
    keys: ReadonlyArray<string>,
    args: ReadonlyArray<string | number>
  ) => Effect.Effect<unknown>
  readonly get: (key: string) => Effect.Effect<string | null>
  readonly publish: (channel: string, message: string) => Effect.Effect<void>
  /**
   * `handler` hears every message of `channel` until the scope closes, on a connection of its own (one that
   * subscribes can send nothing else); the client reconnects and subscribes again after a loss.
   */
  readonly subscribe: (channel: string, handler: (message: string) => void) => Effect.Effect<void, never, Scope.Scope>
}>()("parley/store/RedisConnection") {
  static readonly make = (url: Redacted.Redacted<string>, name: string) =>
    Layer.effect(
      RedisConnection,
      Effect.gen(function*() {
        const client = yield* Effect.acquireRelease(
          Effect.promise(() => createClient({ url: Redacted.value(url), name }).connect()),
          (connected) => Effect.promise(() => connected.close())
        )
        return RedisConnection.of({
          run: (script, keys, args) =>
            Effect.orDie(
              Effect.tryPromise(() => client.eval(script, { keys: [...keys], arguments: args.map(String) }))
            ),
          get: (key) => Effect.orDie(Effect.tryPromise(() => client.get(key))),
          publish: (channel, message) => Effect.orDie(Effect.tryPromise(() => client.publish(channel, message))),
          subscribe: (channel, handler) =>
            Effect.asVoid(Effect.acquireRelease(
              Effect.promise(async () => {
                const subscriber = await client.duplicate({ name: `${name}:subscriber` }).connect()
                await subscriber.subscribe(channel, handler)
                return subscriber
              }),
              (subscriber) => Effect.promise(() => subscriber.close())
            ))
        })
      })
    )

  /**
   * The configured connection. One value, so that the layers of all the
   * counters that provide it share one connection when the gateway is built.
   */
  static readonly layer = Layer.unwrap(Effect.gen(function*() {
    const { redisUrl, instanceId } = yield* AppConfig
    if (redisUrl === undefined) return yield* Effect.die(new Error("RedisConnection.layer needs REDIS_URL"))
    return RedisConnection.make(redisUrl, `parley:${instanceId}`)
  }))
}
