import { Redacted, Schema } from "effect"
import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OpenAiModel, OpenAiModelList } from "../../../src/api/OpenAiApi.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"

let gateway: TestGateway

// A second provider whose model id holds a `/` of its own (as a router's `org/model` names do); never called.
const hub = {
  id: "hub",
  type: "openai-compatible" as const,
  baseURL: "http://127.0.0.1:9/v1",
  apiKey: Redacted.make("sk-hub"),
  models: [{ id: "org/model-a", name: "Model A", categories: ["chat"] }]
}

beforeAll(async () => {
  gateway = await startGateway({ providers: [hub] })
})
afterAll(() => gateway.close())

const client = (apiKey: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 })

/** The ids `models.list()` pages through, every page. */
const listed = async (apiKey: string) => {
  const ids = []
  for await (const model of client(apiKey).models.list()) ids.push(model.id)
  return ids
}

/** The rejection of `promise`, as the SDK threw it. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error as InstanceType<typeof OpenAI.APIError>
  )

describe("GET /v1/models, through OpenAI's SDK", () => {
  it("lists exactly the key's models in OpenAI's list form, the provider as owner", async () => {
    const { secret } = await gateway.createKey({ models: ["test/m2", "hub/*"] })
    const { data: page, response } = await client(secret).models.list().withResponse()
    expect(response.headers.get("x-correlation-id")).toBeTruthy()
    expect(response.headers.get("cache-control")).toBe("private, max-age=3600")
    const body = Schema.decodeUnknownSync(OpenAiModelList)({ object: page.object, data: page.data })
    expect(body.data).toEqual([
      { id: "test/m2", object: "model", created: 0, owned_by: "test" },
      { id: "hub/org/model-a", object: "model", created: 0, owned_by: "hub" }
    ])
  })

  it("gives a * key every model, a narrow key only its own, an empty list none", async () => {
    const all = await gateway.createKey({ models: ["*"] })
    expect(await listed(all.secret)).toEqual(["test/m1", "test/m2", "hub/org/model-a"])
    const one = await gateway.createKey({ models: ["test/m1"] })
    expect(await listed(one.secret)).toEqual(["test/m1"])
    const none = await gateway.createKey({ models: [] })
    expect(await listed(none.secret)).toEqual([])
  })

  it("retrieves a model the key may use, its id's `/` encoded as the SDK sends it", async () => {
    const { secret } = await gateway.createKey({ models: ["test/m2", "hub/*"] })
    const model = await client(secret).models.retrieve("hub/org/model-a")
    expect(Schema.decodeUnknownSync(OpenAiModel)(model)).toEqual({
      id: "hub/org/model-a",
      object: "model",
      created: 0,
      owned_by: "hub"
    })
    expect((await client(secret).models.retrieve("test/m2")).id).toBe("test/m2")
  })

  it("answers a model the key may not use as it answers one that does not exist: NotFoundError", async () => {
    const { secret } = await gateway.createKey({ models: ["test/m2"] })
    const notAllowed = await rejection(client(secret).models.retrieve("test/m1"))
    const unknown = await rejection(client(secret).models.retrieve("test/m9"))
    for (const [error, id] of [[notAllowed, "test/m1"], [unknown, "test/m9"]] as const) {
      expect(error).toBeInstanceOf(OpenAI.NotFoundError)
      expect(error.headers?.get("x-correlation-id")).toBeTruthy()
      expect(error.error).toEqual({
        message:
          `The model "${id}" does not exist or your API key may not use it. GET /v1/models lists the ones it may.`,
        type: "not_found_error",
        param: "model",
        code: "model_not_found"
      })
    }
  })

  it("refuses a bad key with AuthenticationError, without a correlation id", async () => {
    const error = await rejection(client("pk_nope").models.list())
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError)
    expect(error.headers?.get("x-correlation-id")).toBeNull()
    expect(error.error).toEqual({
      message: "Invalid or expired API key",
      type: "authentication_error",
      param: null,
      code: "invalid_api_key"
    })
    expect(await rejection(client("pk_nope").models.retrieve("test/m1"))).toBeInstanceOf(OpenAI.AuthenticationError)
  })
})

describe("GET /v1/models, over plain HTTP", () => {
  const get = (path: string, headers: Record<string, string>) => fetch(`${gateway.url}/v1${path}`, { headers })

  it("takes the key in x-api-key, as Anthropic's clients send it", async () => {
    const { secret } = await gateway.createKey({ models: ["test/m1"] })
    const response = await get("/models", { "x-api-key": secret })
    expect(response.status).toBe(200)
    expect((await response.json()).data.map((model: { id: string }) => model.id)).toEqual(["test/m1"])
    expect((await get("/models/test/m1", { "x-api-key": secret })).status).toBe(200)
    const refused = await get("/models", { "x-api-key": "pk_nope" })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("x-correlation-id")).toBeNull()
    expect((await refused.json()).error.type).toBe("authentication_error")
    const missing = await get("/models", {})
    expect(await missing.json()).toEqual({
      error: {
        message: "Missing authorization header",
        type: "authentication_error",
        param: null,
        code: "missing_authorization"
      }
    })
  })

  it("reads the rest of the path as the id, its `/` raw or encoded", async () => {
    const { secret } = await gateway.createKey({ models: ["hub/*"] })
    const headers = { authorization: `Bearer ${secret}` }
    for (const path of ["/models/hub/org/model-a", "/models/hub%2Forg%2Fmodel-a", "/models/hub/org%2Fmodel-a"]) {
      const response = await get(path, headers)
      expect(response.status, path).toBe(200)
      expect((await response.json()).id, path).toBe("hub/org/model-a")
    }
    for (const path of ["/models/hub", "/models/hub/org", "/models/hub/org/model-a/more"]) {
      expect((await get(path, headers)).status, path).toBe(404)
    }
  })

  it("answers another method with 405 naming GET", async () => {
    const { secret } = await gateway.createKey()
    const response = await fetch(`${gateway.url}/v1/models`, { method: "POST", headers: { "x-api-key": secret } })
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("GET, HEAD")
  })
})
