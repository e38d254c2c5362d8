import { afterAll, beforeAll, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import type { Upstream } from "../../src/demo/upstream/types.ts"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { type GatewayProcess, startGatewayProcess } from "../support/reliability/gatewayProcess.ts"
import { runLoad } from "../support/reliability/load.ts"
import { mixedRequest, unexpectedAnswers } from "../support/reliability/mix.ts"
import { ms, record } from "../support/reliability/record.ts"
import { sized } from "../support/reliability/size.ts"

/**
 * 200 concurrent clients sending the mixed traffic of `mix.ts` to the gateway
 * in its own process, 60 s at full size (10 s at CI size): every request is
 * answered, none with a 5xx, each with a status its kind expects; p99 reported.
 */
let upstream: Upstream
let gateway: GatewayProcess

beforeAll(async () => {
  upstream = await startUpstream({ apiKey: UPSTREAM_API_KEY, recordRequests: false })
  gateway = await startGatewayProcess({ upstreamUrl: upstream.url })
})
afterAll(async () => {
  await gateway?.stop()
  await upstream?.close()
})

it("mixed load at 200 concurrent clients: 100 % answered, zero 500s", async ({ task }) => {
  const seconds = sized(10, 60)
  const result = await runLoad({
    url: gateway.url,
    concurrency: 200,
    durationMs: seconds * 1000,
    next: mixedRequest(gateway.key)
  })
  const answered = Object.values(result.statuses).reduce((sum, count) => sum + count, 0)
  const serverErrors = Object.entries(result.statuses).filter(([status]) => Number(status) >= 500)
  record(task, `200 clients × ${seconds} s`, {
    requests: result.sent,
    answered: `${((answered / result.sent) * 100).toFixed(2)} %`,
    "5xx": serverErrors.reduce((sum, [, count]) => sum + count, 0),
    p50: ms(result.p50Ms),
    p99: ms(result.p99Ms),
    max: ms(result.maxMs),
    rps: Math.round(result.requestsPerSecond)
  })
  expect(result.failures, result.failed.join("\n")).toEqual({})
  expect(answered).toBe(result.sent)
  expect(serverErrors).toEqual([])
  expect(unexpectedAnswers(result.byLabel)).toEqual([])
}, 180_000)
