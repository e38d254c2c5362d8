import { Effect, Layer } from "effect"
import { FailureCounters } from "./FailureCounters.ts"
import { RedisConnection } from "./RedisConnection.ts"

// Each script is one atomic step in Redis. A counter is a hash {n, at}; `at` decides what has
// gone quiet (by the caller's clock, as in the SQL store) and the key expires when it has.
// ARGV: now, quietMs.
const MOST = `
local most = 0
for _, key in ipairs(KEYS) do
  local held = redis.call('HMGET', key, 'n', 'at')
  if held[1] and tonumber(ARGV[1]) - tonumber(held[2]) < tonumber(ARGV[2]) then
    most = math.max(most, tonumber(held[1]))
  end
end
return most`

const ADD = `
for _, key in ipairs(KEYS) do
  local held = redis.call('HMGET', key, 'n', 'at')
  local n = 1
  if held[1] and tonumber(ARGV[1]) - tonumber(held[2]) < tonumber(ARGV[2]) then n = tonumber(held[1]) + 1 end
  redis.call('HSET', key, 'n', n, 'at', ARGV[1])
  redis.call('PEXPIRE', key, ARGV[2])
end
return 0`

const CLEAR = `return redis.call('DEL', unpack(KEYS))`

// Each key's {n, at} (nil when absent or gone quiet), in KEYS' order.
const LATEST = `
local held = {}
for i, key in ipairs(KEYS) do
  local h = redis.call('HMGET', key, 'n', 'at')
  if h[1] and tonumber(ARGV[1]) - tonumber(h[2]) < tonumber(ARGV[2]) then held[i] = {h[1], h[2]} else held[i] = {} end
end
return held`

/** The failure counters in Redis (`REDIS_URL`), over the instance's one connection. */
export const redisFailures = Layer.effect(
  FailureCounters,
  Effect.gen(function*() {
    const redis = yield* RedisConnection
    const keysOf = (counters: ReadonlyArray<string>) => counters.map((counter) => `parley:failures:${counter}`)
    return FailureCounters.of({
      most: (counters, quietMs, now) => Effect.map(redis.run(MOST, keysOf(counters), [now, quietMs]), Number),
      add: (counters, quietMs, now) => Effect.asVoid(redis.run(ADD, keysOf(counters), [now, quietMs])),
      clear: (counters) => Effect.asVoid(redis.run(CLEAR, keysOf(counters), [])),
      latest: (counters, quietMs, now) =>
        Effect.map(redis.run(LATEST, keysOf(counters), [now, quietMs]), (held) => {
          const counts = new Map<string, { readonly failures: number; readonly at: number }>()
          ;(held as ReadonlyArray<ReadonlyArray<string>>).forEach((pair, index) => {
            if (pair.length === 2) counts.set(counters[index]!, { failures: Number(pair[0]), at: Number(pair[1]) })
          })
          return counts
        })
    })
  })
)
