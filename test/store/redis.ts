import { describe, it } from "@effect/vitest"
import { connect } from "node:net"

/**
 * Real Redis for tests. In CI (`CI=true`) an unreachable server fails the
 * suite loudly, as Postgres does (./postgres.ts); elsewhere those tests are
 * skipped with a message saying why.
 */
export const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

export const redisReachable = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl)
  const socket = connect({ host: hostname, port: Number(port || 6379), timeout: 2_000 })
  const done = (ok: boolean) => {
    socket.destroy()
    resolve(ok)
  }
  socket.once("connect", () => done(true))
  socket.once("timeout", () => done(false))
  socket.once("error", () => done(false))
})

/** `describe` for tests that need Redis. */
export const describeRedis = (name: string, body: () => void, options: { readonly timeout?: number } = {}): void => {
  if (redisReachable) {
    describe(name, options, body)
  } else if (process.env.CI === "true") {
    describe(name, () => {
      it("needs Redis", () => {
        throw new Error(`Redis is unreachable at ${redisUrl}; CI must provide it`)
      })
    })
  } else {
    describe.skip(`${name} (skipped: Redis unreachable at ${redisUrl}; required when CI=true)`, body)
  }
}
