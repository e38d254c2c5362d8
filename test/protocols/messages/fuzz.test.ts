import { describe } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { afterAll, beforeAll } from "vitest"
import { MessagesRequest } from "../../../src/protocols/messages/request.ts"
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

const fields = Object.keys(MessagesRequest.fields)

const cases = Arbitrary.all({
  body: fuzzedBodies(validBodies, fields),
  path: Arbitrary.schema(Schema.Literals(["/v1/messages", "/v1/messages/count_tokens"]))
}).pipe(Arbitrary.map(({ body, path }) => ({ ...body, path })))

describe("fuzzed POST /v1/messages and /v1/messages/count_tokens bodies (issue 21)", () => {
  fuzzDoor(
    "answer 200 when valid and a documented 4xx in Anthropic's envelope otherwise, never a 500",
    cases,
    () => ({ url: gateway.url, headers: { "x-api-key": secret } }),
    (body) => {
      if (body.type !== "error") throw new Error(`not Anthropic's envelope: ${JSON.stringify(body)}`)
      return body.error
    }
  )
})
