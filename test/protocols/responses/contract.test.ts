import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { afterAll, beforeAll } from "vitest"
import { contractSchema as schema, spec } from "../../support/contractSchemas.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import { readStream } from "../../support/openResponses.ts"
import { validBodies } from "./generators.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway()
  ;({ secret } = await gateway.createKey())
})
afterAll(() => gateway.close())

const events = (text: string) => readStream(text).events.map(({ data }) => data)

describe("POST /v1/responses in /openapi.json (issue 21 part 1)", () => {
  it("is declared with its request, its answers and OpenAI's error bodies", () => {
    const operation = spec.paths["/v1/responses"].post
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

  it("answers another method on the door 405 with Allow: POST", async () => {
    const response = await fetch(`${gateway.url}/v1/responses`, { headers: bearer(secret) })
    assert.strictEqual(response.status, 405)
    assert.strictEqual(response.headers.get("allow"), "POST")
  })

  it.prop("every valid body validates against the contract's ResponsesRequest", [validBodies], ([body]) => {
    const validate = schema("ResponsesRequest")
    assert.isTrue(validate(body), JSON.stringify(validate.errors))
  })

  it("declares item_reference as an input item of its own", () =>
    assert.include(
      JSON.stringify(spec.components.schemas.ResponsesRequest),
      `{"type":"string","enum":["item_reference"]}`
    ))

  it.prop(
    "a body with item_reference items among its input validates against the contract's ResponsesRequest",
    [validBodies, Arbitrary.schema(Schema.Array(Schema.String).check(Schema.isMinLength(1)))],
    ([body, ids]) => {
      const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input
      const references = ids.map((id) => ({ type: "item_reference", id }))
      const validate = schema("ResponsesRequest")
      assert.isTrue(validate({ ...body, input: [...references, ...input] }), JSON.stringify(validate.errors))
    }
  )

  it("a whole answer, and the stream's last response object, validate against the contract's Response", async () => {
    const validate = schema("Response")
    const tools = [{ type: "function", name: "weather", parameters: { type: "object" }, strict: false }]
    gateway.upstream.enqueue({ type: "text", text: "Hello", reasoning: "hm" })
    const whole = await postJson(`${gateway.url}/v1/responses`, {
      model: "test/m1",
      input: "Hi",
      instructions: "Be brief.",
      tools
    }, bearer(secret))
    const answer = await whole.json()
    assert.isTrue(validate(answer), JSON.stringify(validate.errors))
    assert.deepStrictEqual(answer.output.map((item: { type: string }) => item.type), ["reasoning", "message"])

    gateway.upstream.enqueue({ type: "tool-calls", calls: [{ id: "call_1", name: "weather", arguments: {} }] })
    const streamed = await postJson(`${gateway.url}/v1/responses`, {
      model: "test/m1",
      input: "Weather?",
      stream: true,
      tools
    }, bearer(secret))
    const last = events(await streamed.text()).at(-1)!
    assert.strictEqual(last.type, "response.completed")
    assert.isTrue(validate(last.response), JSON.stringify(validate.errors))
    assert.strictEqual(last.response.output[0].type, "function_call")
  })

  it("declares the stored responses' routes, whose answers validate against their schemas (issue 23 part 4)", async () => {
    const retrieve = spec.paths["/v1/responses/{id}"].get
    const remove = spec.paths["/v1/responses/{id}"].delete
    const list = spec.paths["/v1/responses/{id}/input_items"].get
    for (const operation of [retrieve, remove, list]) {
      assert.deepStrictEqual(operation.security, [{ bearer: [] }, { apiKey: [] }])
      assert.property(operation.responses, "404")
    }
    assert.sameMembers(list.parameters.map((parameter: any) => parameter.name), [
      "id",
      "after",
      "before",
      "limit",
      "order",
      "include"
    ])

    gateway.upstream.enqueue({ type: "text", text: "Kept" })
    const created =
      await (await postJson(`${gateway.url}/v1/responses`, { model: "test/m1", input: "Hi" }, bearer(secret)))
        .json()
    const got = (path: string, method = "GET") =>
      fetch(`${gateway.url}/v1/responses/${created.id}${path}`, {
        method,
        headers: bearer(secret)
      })
    const validate = (name: string, value: unknown) => {
      const check = schema(name)
      assert.isTrue(check(value), JSON.stringify(check.errors))
    }
    validate("Response", await (await got("")).json())
    validate("ResponseInputItemList", await (await got("/input_items")).json())
    validate("DeletedResponse", await (await got("", "DELETE")).json())

    const put = await got("", "PUT")
    assert.strictEqual(put.status, 405)
    assert.strictEqual(put.headers.get("allow"), "DELETE, GET, HEAD")
  })
})
