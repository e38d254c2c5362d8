import { Redacted } from "effect"
import { createClient } from "redis"
import { afterAll, expect, it } from "vitest"
import { describeRedis, redisUrl } from "../store/redis.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"

/**
 * docs/DESIGN.md §11: the request limiter, the budgets and the sign-in
 * throttle (§6) share the instance's one Redis connection, named after the
 * instance.
 */
describeRedis("one Redis connection per instance", () => {
  const instanceId = `redis-test-${process.pid}-${Date.now()}`
  let gateway: TestGateway | undefined
  afterAll(() => gateway?.close())

  it("serves the request limits, the budgets and the sign-in throttle over one connection named parley:<instance>", async () => {
    gateway = await startGateway({ config: { redisUrl: Redacted.make(redisUrl), instanceId } })
    const { secret } = await gateway.createKey({ limits: { requestsPerMinute: 5, tokensPerDay: 100_000 } })
    gateway.upstream.enqueue({ type: "text", text: "hi" })
    const answer = await postJson(`${gateway.url}/api/v1/chat`, chatBody(), bearer(secret))
    expect(answer.status).toBe(200)
    expect(answer.headers.get("ratelimit-limit")).not.toBeNull()
    const signIn = await postJson(`${gateway.url}/admin/v1/session`, {
      email: "no@example.com",
      password: "not the password"
    })
    expect(signIn.status).toBe(401)

    const observer = await createClient({ url: redisUrl }).connect()
    try {
      const clients = (await observer.sendCommand(["CLIENT", "LIST"])) as string
      const ours = clients.split("\n").filter((line) => line.includes(` name=parley:${instanceId} `))
      expect(ours).toHaveLength(1)
      // Kept runs' stops (docs/DESIGN.md §16) are heard on a subscribing connection of its own.
      expect(clients.split("\n").filter((line) => line.includes(` name=parley:${instanceId}:subscriber `)))
        .toHaveLength(1)
    } finally {
      await observer.close()
    }
  })
})
