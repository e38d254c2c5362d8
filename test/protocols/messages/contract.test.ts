import { assert, describe, it } from "@effect/vitest"
import { afterAll, beforeAll } from "vitest"
import { contractSchema as schema, spec } from "../../support/contractSchemas.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { postJson } from "../../support/http.ts"
import { validBodies } from "./generators.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

describe("POST /v1/messages in /openapi.json (issue 21)", () => {
  it("is declared with its request, its answers and Anthropic's error bodies, count_tokens beside it", () => {
    const operation = spec.paths["/v1/messages"].post
    assert.deepStrictEqual(Object.keys(operation.responses).sort(), [
      "200",
      "400",
      "401",
      "403",
      "404",
      "413",
      "429",
      "500",
      "503"
    ])
    assert.deepStrictEqual(Object.keys(operation.responses["200"].content).sort(), [
      "application/json",
      "text/event-stream"
    ])
    assert.isDefined(spec.paths["/v1/messages/count_tokens"].post)
  })

  it.prop("every valid body validates against the contract's MessagesRequest", [validBodies], ([body]) => {
    const validate = schema("MessagesRequest")
    assert.isTrue(validate(body), JSON.stringify(validate.errors))
  })

  it("a whole answer validates against the contract's AnthropicMessage", async () => {
    gateway.upstream.enqueue({ type: "text", text: "Hello", reasoning: "hm" })
    const response = await postJson(
      `${gateway.url}/v1/messages`,
      { model: "test/m1", max_tokens: 20, messages: [{ role: "user", content: "Hi" }] },
      { "x-api-key": secret }
    )
    const validate = schema("AnthropicMessage")
    assert.isTrue(validate(await response.json()), JSON.stringify(validate.errors))
  })
})
