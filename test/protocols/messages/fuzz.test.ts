import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { afterAll, beforeAll } from "vitest"
import { MessagesRequest } from "../../../src/protocols/messages/request.ts"
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

/** What a client's mistake may answer on these doors (a provider's failures aside). */
const DOCUMENTED = new Set([200, 400, 401, 403, 413])

const fields = Object.keys(MessagesRequest.fields)

const cases = Arbitrary.all({
  body: fuzzedBodies(validBodies, fields),
  path: Arbitrary.schema(Schema.Literals(["/v1/messages", "/v1/messages/count_tokens"]))
}).pipe(Arbitrary.map(({ body, path }) => ({ ...body, path })))

const post = (path: string, text: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": secret },
      body: text
    })
    return { status: response.status, type: response.headers.get("content-type"), answer: await response.text() }
  })

describe("fuzzed POST /v1/messages and /v1/messages/count_tokens bodies (issue 21)", () => {
  it.effect.prop(
    "answer 200 when valid and a documented 4xx in Anthropic's envelope otherwise, never a 500",
    [cases],
    ([{ path, text, valid }]) =>
      Effect.gen(function*() {
        const { answer, status, type } = yield* post(path, text)
        const context = `${status} ${answer.slice(0, 300)}\nfor ${path} ${text.slice(0, 600)}`
        assert.isTrue(DOCUMENTED.has(status), context)
        if (valid) assert.strictEqual(status, 200, context)
        if (status !== 200 && type?.includes("json") === true) {
          const body = JSON.parse(answer)
          assert.strictEqual(body.type, "error", context)
          assert.strictEqual(typeof body.error.message, "string", context)
          assert.strictEqual(typeof body.error.type, "string", context)
        }
      }),
    { timeout: 120_000, arbitrary: { runs: 400 } }
  )
})
