import { afterAll, beforeAll, describe, it } from "vitest"
import { fuzzChat, startFuzzGateway } from "../support/fuzz/fuzzGateway.ts"
import type { TestGateway } from "../support/gateway.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  ;({ gateway, secret } = await startFuzzGateway())
})
afterAll(() => gateway.close())

describe("fuzzed POST /api/v1/chat bodies (issue 11 item 2; the full-size run is test/reliability/)", () => {
  it(
    "answer 200 when valid and a documented 4xx otherwise, never a 500",
    () => fuzzChat(gateway, secret, 2_000),
    180_000
  )
})
