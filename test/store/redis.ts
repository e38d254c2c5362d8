import { describeNeeding, reachable } from "./realService.ts"

/** Real Redis for tests; in CI (`CI=true`) a missing one fails loudly (./realService.ts). */
export const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

export const redisReachable = await reachable(redisUrl, 6379)

/** `describe` for tests that need Redis. */
export const describeRedis = describeNeeding("Redis", redisUrl, redisReachable)
