import { describe } from "@effect/vitest"
import { afterAll, beforeAll } from "vitest"
import { fuzzDoor } from "../../support/doorFuzz.ts"
import { messagesDoor } from "../../support/fuzz/chatDoors.ts"
import { startFuzzGateway } from "../../support/fuzz/startFuzzGateway.ts"
import type { TestGateway } from "../../support/gateway.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  ;({ gateway, secret } = await startFuzzGateway())
})
afterAll(() => gateway.close())

describe("fuzzed POST /v1/messages and /v1/messages/count_tokens bodies (issue 21; hostile text, issue 32 part 3)", () => {
  fuzzDoor(
    "answer 200 when valid and a documented 4xx in Anthropic's envelope when not (never a 2xx, never a 5xx), with headers of safe tokens, and /health after every batch",
    messagesDoor.cases,
    () => ({ url: gateway.url, headers: messagesDoor.keyHeaders(secret) }),
    messagesDoor.errorOf
  )
})
