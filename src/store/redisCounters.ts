import { Effect, Layer } from "effect"
import { LimitCounters } from "./LimitCounters.ts"
import { RedisConnection } from "./RedisConnection.ts"

// Each script is one atomic step in Redis, so every instance sees the same counts (docs/DESIGN.md §11).
// The window is a sorted set of hit times; members are unique per hit (time and a random suffix).
const HIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or ARGV[1]
if count >= tonumber(ARGV[3]) then return {0, count, oldest} end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1] .. ':' .. ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, count + 1, oldest}`

// In flight: a counter that expires if an instance dies holding it, refreshed by every entry.
const ENTER = `
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now >= tonumber(ARGV[1]) then return -1 end
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 3600)
return count`

const LEAVE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0`

// A read of both counters, nothing changed; ARGV[1] is `(<now - window>`: the hits HIT would keep.
const PEEK = `
local count = redis.call('ZCOUNT', KEYS[1], ARGV[1], '+inf')
local oldest = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2] or ''
local flight = redis.call('GET', KEYS[2]) or '0'
return {count, oldest, flight}`

/** The counters in Redis (`REDIS_URL`), over the instance's one connection. */
export const redisCounters = Layer.effect(
  LimitCounters,
  Effect.gen(function*() {
    const redis = yield* RedisConnection
    const runOn = (script: string, keys: ReadonlyArray<string>, args: ReadonlyArray<string | number>) =>
      redis.run(script, keys.map((key) => `parley:limits:${key}`), args)
    const run = (script: string, key: string, args: ReadonlyArray<string | number>) => runOn(script, [key], args)
    return LimitCounters.of({
      hit: (scope, limit, windowMs, now) =>
        Effect.map(run(HIT, `hits:${scope}`, [now, windowMs, limit, Math.random()]), (reply) => {
          const [allowed, count, oldest] = reply as [number, number, string | number]
          return { allowed: allowed === 1, count: Number(count), oldestAt: Number(oldest) }
        }),
      enter: (scope, limit) =>
        Effect.map(run(ENTER, `flight:${scope}`, [limit]), (count) => Number(count) < 0 ? undefined : Number(count)),
      leave: (scope) => Effect.asVoid(run(LEAVE, `flight:${scope}`, [])),
      peek: (scope, windowMs, now) =>
        Effect.map(runOn(PEEK, [`hits:${scope}`, `flight:${scope}`], [`(${now - windowMs}`]), (reply) => {
          const [hits, oldest, flight] = reply as [number, string, string]
          return {
            hits: Number(hits),
            oldestAt: oldest === "" ? undefined : Number(oldest),
            inFlight: Number(flight)
          }
        })
    })
  })
)
