import { describe } from "@effect/vitest"
import { Arbitrary } from "effect"
import { afterAll, beforeAll } from "vitest"
import { ResponsesRequest } from "../../../src/protocols/responses/request.ts"
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

const cases = fuzzedBodies(validBodies, Object.keys(ResponsesRequest.fields)).pipe(
  Arbitrary.map((body) => ({ ...body, path: "/v1/responses" }))
)

describe("fuzzed POST /v1/responses bodies (issue 21 part 1)", () => {
  fuzzDoor(
    "answer 200 when valid and a documented 4xx in OpenAI's envelope otherwise, never a 500",
    cases,
    () => ({ url: gateway.url, headers: { authorization: `Bearer ${secret}` } }),
    (body) => body.error
  )
})
