import { describe } from "@effect/vitest"
import { afterAll, beforeAll } from "vitest"
import { fuzzDoor } from "../../support/doorFuzz.ts"
import { responsesDoor } from "../../support/fuzz/chatDoors.ts"
import { startFuzzGateway } from "../../support/fuzz/startFuzzGateway.ts"
import type { TestGateway } from "../../support/gateway.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  ;({ gateway, secret } = await startFuzzGateway())
})
afterAll(() => gateway.close())

describe("fuzzed POST /v1/responses bodies (issue 21 part 1; hostile text, issue 32 part 3)", () => {
  fuzzDoor(
    "answer 200 when valid and a documented 4xx in OpenAI's envelope when not (never a 2xx, never a 5xx), with headers of safe tokens, and /health after every batch",
    responsesDoor.cases,
    () => ({ url: gateway.url, headers: responsesDoor.keyHeaders(secret) }),
    responsesDoor.errorOf
  )
})
