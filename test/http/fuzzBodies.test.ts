import { afterAll, beforeAll, describe, it } from "vitest"
import { fuzzChat } from "../support/fuzz/fuzzGateway.ts"
import { startFuzzGateway } from "../support/fuzz/startFuzzGateway.ts"
import type { TestGateway } from "../support/gateway.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  ;({ gateway, secret } = await startFuzzGateway())
})
afterAll(() => gateway.close())

describe("fuzzed POST /api/v1/chat bodies (issue 11 item 2, issue 32 part 3; the full-size run is test/reliability/)", () => {
  it(
    "answer 200 when valid and a documented 4xx when not (never a 2xx, never a 5xx), with headers of safe tokens, and /health after every batch",
    () => fuzzChat(gateway, secret, 2_000),
    180_000
  )
})
