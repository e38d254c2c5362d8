import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { ResponsesRequest } from "../../../src/protocols/responses/request.ts"
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

/** What a client's mistake may answer on this door (a provider's failures aside). */
const DOCUMENTED = new Set([200, 400, 401, 403, 413])

const fields = Object.keys(ResponsesRequest.fields)

const cases = fuzzedBodies(validBodies, fields)

const post = (text: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
      body: text
    })
    return { status: response.status, type: response.headers.get("content-type"), answer: await response.text() }
  })

describe("fuzzed POST /v1/responses bodies (issue 21 part 1)", () => {
  it.effect.prop(
    "answer 200 when valid and a documented 4xx in OpenAI's envelope otherwise, never a 500",
    [cases],
    ([{ text, valid }]) =>
      Effect.gen(function*() {
        const { answer, status, type } = yield* post(text)
        const context = `${status} ${answer.slice(0, 300)}\nfor ${text.slice(0, 600)}`
        assert.isTrue(DOCUMENTED.has(status), context)
        if (valid) assert.strictEqual(status, 200, context)
        if (status !== 200 && type?.includes("json") === true) {
          const { error } = JSON.parse(answer)
          assert.strictEqual(typeof error.message, "string", context)
          assert.strictEqual(typeof error.type, "string", context)
        }
      }),
    { timeout: 120_000, arbitrary: { runs: 400 } }
  )
})
