import { assert, describe, it } from "@effect/vitest"
import { afterAll, beforeAll } from "vitest"
import { contractSchema as schema, spec } from "../../support/contractSchemas.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { validBodies } from "./generators.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

describe("POST /v1/chat/completions in /openapi.json (issue 20 part 7)", () => {
  it("is declared with its request, its answers and OpenAI's error bodies", () => {
    const operation = spec.paths["/v1/chat/completions"].post
    assert.deepStrictEqual(Object.keys(operation.responses).sort(), [
      "200",
      "400",
      "401",
      "403",
      "413",
      "429",
      "500",
      "503"
    ])
    assert.deepStrictEqual(Object.keys(operation.responses["200"].content).sort(), [
      "application/json",
      "text/event-stream"
    ])
  })

  it.prop("every valid body validates against the contract's ChatCompletionRequest", [validBodies], ([body]) => {
    const validate = schema("ChatCompletionRequest")
    assert.isTrue(validate(body), JSON.stringify(validate.errors))
  })

  it("a whole answer validates against the contract's ChatCompletion", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Hello", reasoning: "hm" })
    const response = await postJson(
      `${gateway.url}/v1/chat/completions`,
      { model: "test/m1", messages: [{ role: "user", content: "Hi" }] },
      bearer(secret)
    )
    const validate = schema("ChatCompletion")
    assert.isTrue(validate(await response.json()), JSON.stringify(validate.errors))
  })
})
