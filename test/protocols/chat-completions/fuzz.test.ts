import { describe } from "@effect/vitest"
import { Arbitrary } from "effect"
import { afterAll, beforeAll } from "vitest"
import { CompletionRequest } from "../../../src/protocols/chat-completions/request.ts"
import { fuzzDoor } from "../../support/doorFuzz.ts"
import { fuzzedBodies } from "../../support/doorProperties.ts"
import { startFuzzGateway } from "../../support/fuzz/fuzzGateway.ts"
import type { TestGateway } from "../../support/gateway.ts"
import { validBodies } from "./generators.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  ;({ gateway, secret } = await startFuzzGateway())
})
afterAll(() => gateway.close())

const cases = fuzzedBodies(validBodies, Object.keys(CompletionRequest.fields)).pipe(
  Arbitrary.map((body) => ({ ...body, path: "/v1/chat/completions" }))
)

describe("fuzzed POST /v1/chat/completions bodies (issue 20)", () => {
  fuzzDoor(
    "answer 200 when valid and a documented 4xx in OpenAI's envelope otherwise, never a 500",
    cases,
    () => ({ url: gateway.url, headers: { authorization: `Bearer ${secret}` } }),
    (body) => body.error
  )
})
