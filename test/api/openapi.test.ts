import { assert, describe, it } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect, Result } from "effect"
import { OpenApi } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { decodeChatRequest } from "../../src/domain/ChatRequest.ts"
import { chatProtocols } from "../../src/domain/protocols.ts"
import { validBodies } from "../domain/generators.ts"
import { startGateway } from "../support/gateway.ts"

const served = Effect.acquireUseRelease(
  Effect.promise(() => startGateway()),
  (gateway) => Effect.promise(() => fetch(`${gateway.url}/openapi.json`).then((r) => r.json() as Promise<any>)),
  (gateway) => Effect.promise(() => gateway.close())
)

const spec = OpenApi.fromApi(Api) as unknown as Record<string, any>
const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addSchema({ ...spec, $id: "parley-openapi" })
const validateChatRequest = ajv.getSchema("parley-openapi#/components/schemas/ChatRequest")!

/** Every node of a JSON value, with its path. */
const nodes = function*(value: unknown, path = ""): Generator<readonly [string, unknown]> {
  yield [path, value]
  if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) yield* nodes(child, `${path}/${key}`)
  }
}

/** What an AI SDK `DefaultChatTransport` (useChat) posts, with parley's own fields in its `body` option. */
const useChatBody = {
  model: "test/m1",
  stream: true,
  id: "chat_8f2",
  trigger: "submit-message",
  messageId: "msg_3",
  messages: [{ id: "msg_1", role: "user", parts: [{ type: "text", text: "Hello" }] }]
}

const accepted = (body: unknown) => Result.isSuccess(Effect.runSync(Effect.result(decodeChatRequest(body))))

describe("/openapi.json", () => {
  it.effect("is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)", () =>
    Effect.gen(function*() {
      const document = yield* served
      const result = yield* Effect.promise(() => new Validator().validate(document))
      assert.deepStrictEqual(result.errors, undefined)
      assert.isTrue(result.valid)
      assert.strictEqual(document.openapi, "3.1.0")
    }))

  it("declares the key as a bearer token, in the case the viewer matches", () => {
    assert.deepInclude(spec.components.securitySchemes.bearer, { type: "http", scheme: "bearer" })
  })

  it("types counts as integers: no \"NaN\" or \"Infinity\" anywhere", () => {
    const strings = [...nodes(spec)].filter(([, value]) => value === "NaN" || value === "Infinity")
    assert.deepStrictEqual(strings, [])
    const usage = spec.components.schemas.ChatResponse.properties.data.properties.usage.properties
    for (const field of ["inputTokens", "outputTokens", "totalTokens", "reasoningTokens", "cachedInputTokens"]) {
      assert.deepInclude(usage[field], { type: "integer", minimum: 0 }, field)
    }
    const prune = spec.components.schemas.ValidationReport.properties.prune.properties
    assert.strictEqual(prune.tokensBefore.type, "integer")
    assert.strictEqual(spec.components.schemas.Sandbox.properties.display.properties.width.type, "integer")
  })

  it("documents GET /v1/models and /v1/models/{model}: OpenAI's shapes, either key header, OpenAI's errors (docs/DESIGN.md §14)", () => {
    const schemaOf = (response: any) => {
      const schema = response.content["application/json"].schema
      return spec.components.schemas[schema.$ref.split("/").at(-1)]
    }
    const list = spec.paths["/v1/models"].get
    const retrieve = spec.paths["/v1/models/{model}"].get
    for (const operation of [list, retrieve]) {
      assert.deepStrictEqual(operation.tags, ["openai"])
      assert.deepStrictEqual(operation.security, [{ bearer: [] }, { apiKey: [] }])
      assert.hasAllKeys(schemaOf(operation.responses["401"]).properties.error.properties, [
        "message",
        "type",
        "param",
        "code"
      ])
    }
    assert.deepInclude(spec.components.securitySchemes.apiKey, { type: "apiKey", in: "header", name: "x-api-key" })
    assert.strictEqual(schemaOf(list.responses["200"]).properties.data.items.$ref, "#/components/schemas/OpenAiModel")
    const model = schemaOf(retrieve.responses["200"])
    assert.sameMembers(model.required, ["id", "object", "created", "owned_by"])
    assert.strictEqual(model.properties.created.type, "integer")
    assert.property(retrieve.responses, "404")
    assert.deepStrictEqual(retrieve.parameters.map((parameter: any) => [parameter.name, parameter.in]), [[
      "model",
      "path"
    ]])
  })

  it("documents the MCP server routes under the admin tag, with no header values in the view (docs/DESIGN.md §9)", () => {
    const routes = [
      ["get", "/admin/v1/mcp-servers"],
      ["post", "/admin/v1/mcp-servers"],
      ["get", "/admin/v1/mcp-servers/{id}"],
      ["patch", "/admin/v1/mcp-servers/{id}"],
      ["delete", "/admin/v1/mcp-servers/{id}"],
      ["post", "/admin/v1/mcp-servers/{id}/refresh"]
    ] as const
    for (const [method, path] of routes) assert.deepStrictEqual(spec.paths[path]?.[method]?.tags, ["admin"], path)
    assert.hasAllKeys(spec.components.schemas.McpServer.properties, [
      "id",
      "source",
      "transport",
      "url",
      "headerNames",
      "enabled",
      "status",
      "reason",
      "tools"
    ])
  })

  it("declares the admin sandbox list with the fields it sends: account, key, backend and instance (DESIGN §6)", () => {
    const resolve = (schema: any) =>
      schema.$ref === undefined ? schema : spec.components.schemas[schema.$ref.split("/").at(-1)]
    const answer = resolve(spec.paths["/admin/v1/sandboxes"].get.responses["200"].content["application/json"].schema)
    const sandbox = resolve(answer.properties.data.properties.sandboxes.items)
    assert.sameMembers(Object.keys(sandbox.properties), [
      "id",
      "accountId",
      "owner",
      "keyId",
      "desktop",
      "network",
      "display",
      "createdAt",
      "backend",
      "instance",
      "usedAt"
    ])
    assert.sameMembers(sandbox.required, [
      "id",
      "accountId",
      "owner",
      "desktop",
      "network",
      "createdAt",
      "backend",
      "instance",
      "usedAt"
    ])
    assert.deepStrictEqual(sandbox.properties.backend.enum, ["local", "docker"])
    assert.isFalse(sandbox.additionalProperties)
  })

  it("documents a key's resumable runs under the admin tag: the list's fields and the replayed stream (§6, §16)", () => {
    const runs = "/admin/v1/keys/{id}/runs"
    for (
      const [method, path] of [
        ["get", runs],
        ["post", `${runs}/{chatId}/stop`],
        ["get", `${runs}/{chatId}/stream`]
      ] as const
    ) assert.deepStrictEqual(spec.paths[path]?.[method]?.tags, ["admin"], path)
    const run = spec.components.schemas.KeptRun
    assert.sameMembers(Object.keys(run.properties), ["id", "protocol", "status", "cut", "startedAt", "endedAt"])
    assert.sameMembers(run.required, ["id", "protocol", "status", "cut", "startedAt", "endedAt"])
    // The door that frames its replays: a chat door of the table, never /mcp.
    assert.sameMembers(run.properties.protocol.enum, [...chatProtocols])
    assert.sameMembers(run.properties.status.enum, ["running", "ended", "stopped"])
    assert.hasAllKeys(spec.paths[`${runs}/{chatId}/stream`].get.responses["200"].content, ["text/event-stream"])
  })

  it("accepts a useChat body: the fields AI SDK transports add (docs/DESIGN.md §3.16)", () => {
    assert.isTrue(accepted(useChatBody))
    assert.isTrue(validateChatRequest(useChatBody), JSON.stringify(validateChatRequest.errors))
  })

  it("accepts the fields the server ignores inside messages, and refuses unknown top-level and pruneOptions ones", () => {
    const extras = {
      model: "test/m1",
      messages: [{ role: "user", content: "Hi", createdAt: "2026-01-01" }],
      pruneOptions: { targetTokens: 100 }
    }
    assert.isTrue(accepted(extras))
    assert.isTrue(validateChatRequest(extras), JSON.stringify(validateChatRequest.errors))
    const misspelled = [{ ...useChatBody, strem: false }, { ...extras, pruneOptions: { targetTokens: 100, note: "x" } }]
    for (const body of misspelled) {
      assert.isFalse(accepted(body))
      assert.isFalse(validateChatRequest(body))
    }
  })

  it.prop("every body the server accepts validates against the contract's ChatRequest", [validBodies], ([body]) => {
    assert.isTrue(accepted(body))
    assert.isTrue(validateChatRequest(body), JSON.stringify(validateChatRequest.errors))
  })
})
