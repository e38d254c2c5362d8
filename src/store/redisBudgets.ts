import { Effect, Layer } from "effect"
import { BudgetCounters } from "./BudgetCounters.ts"
import { budgetWindow, fromUnits } from "./budgetWindows.ts"
import { RedisConnection } from "./RedisConnection.ts"

// Each script is one atomic step in Redis (docs/DESIGN.md §11). A counter expires when its window resets.
const RESERVE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if used + amount > tonumber(ARGV[2]) then return {0, used} end
used = redis.call('INCRBY', KEYS[1], amount)
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return {1, used}`

// A window that has reset (its key expired) is not brought back.
const SETTLE = `
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
local used = tonumber(held) - tonumber(ARGV[1]) + tonumber(ARGV[2])
if used < 0 then used = 0 end
redis.call('SET', KEYS[1], used, 'KEEPTTL')
return used`

const keyOf = (counter: string) => `parley:budgets:${counter}`

/** The budget counters in Redis (`REDIS_URL`), over the instance's one connection. */
export const redisBudgets = Layer.effect(
  BudgetCounters,
  Effect.gen(function*() {
    const redis = yield* RedisConnection
    const run = (script: string, counter: string, args: ReadonlyArray<number>) =>
      redis.run(script, [keyOf(counter)], args)
    return BudgetCounters.of({
      reserve: (window, amount, limit) =>
        Effect.map(run(RESERVE, window.counter, [amount, limit, window.resetAt]), (reply) => {
          const [allowed, used] = reply as [number, number]
          return { allowed: allowed === 1, used: Number(used) }
        }),
      settle: (window, reserved, used) => Effect.asVoid(run(SETTLE, window.counter, [reserved, used])),
      budgetUsed: (scope, limit, now) => {
        const window = budgetWindow(scope, limit, now)
        return Effect.map(
          redis.get(keyOf(window.counter)),
          (held) => ({ used: fromUnits(limit, Number(held ?? 0)), resetAt: new Date(window.resetAt).toISOString() })
        )
      }
    })
  })
)
