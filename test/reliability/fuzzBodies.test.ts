import { afterAll, beforeAll, describe, it } from "vitest"
import { fuzzChat, startFuzzGateway } from "../support/fuzz/fuzzGateway.ts"
import type { TestGateway } from "../support/gateway.ts"
import { record } from "../support/reliability/record.ts"
import { sized } from "../support/reliability/size.ts"

/** ≥ 100,000 bodies at full size (RELIABILITY_SIZE=full), 5,000 at CI size (issue 11). */
const RUNS = sized(5_000, 100_000)

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  ;({ gateway, secret } = await startFuzzGateway())
})
afterAll(() => gateway.close())

describe(`${RUNS} fuzzed POST /api/v1/chat bodies`, () => {
  it(
    "answer 200 when valid and a documented 4xx otherwise, never a 500",
    async ({ task }) => {
      const statuses = await fuzzChat(gateway, secret, RUNS)
      record(task, `${RUNS.toLocaleString("en")} bodies`, {
        statuses: Object.entries(statuses).map(([status, count]) => `${status}×${count}`).join(" ")
      })
    },
    // About 3 ms a body on 2 cores, with room to spare.
    RUNS * 20
  )
})
