import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { topLevelModel } from "../../src/protocols/namedModel.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, postJson } from "../support/http.ts"

/**
 * A request refused for its body still says in the ledger which model it
 * asked for (issue 35: the console showed "—" for a refused Responses
 * request), on every door; a `model` that is not a string names none.
 */
let gateway: TestGateway
let key: { readonly id: string; readonly secret: string }

beforeAll(async () => {
  gateway = await startGateway()
  key = await gateway.createKey()
})
afterAll(() => gateway.close())

const doors = [
  { protocol: "ui", path: "/api/v1/chat", refused: { messages: "not a list" } },
  { protocol: "chat-completions", path: "/v1/chat/completions", refused: { messages: "not a list" } },
  { protocol: "messages", path: "/v1/messages", refused: { max_tokens: 10, messages: "not a list" } },
  // Background needs a stored response.
  { protocol: "responses", path: "/v1/responses", refused: { input: "Hi", background: true, store: false } }
] as const

describe("the model a refused body named, in the ledger", () => {
  it.each(doors)("$protocol records it", async ({ path, protocol, refused }) => {
    for (const model of [`test/m2`, 42]) {
      const response = await postJson(`${gateway.url}${path}`, { model, ...refused }, bearer(key.secret))
      expect(response.status).toBe(400)
      const correlationId = response.headers.get("x-correlation-id")
      await response.body?.cancel()
      await expect.poll(async () => {
        const rows = await gateway.ledgerRows({ keyId: key.id })
        const row = rows.find((event) => event.correlationId === correlationId)
        return row === undefined ? undefined : { protocol: row.protocol, outcome: row.outcome, model: row.model }
      }).toEqual({ protocol, outcome: "rejected", model: typeof model === "string" ? model : null })
    }
  })

  it("is the body's top-level `model` when that is a non-empty string, and nothing else", () => {
    fc.assert(fc.property(fc.jsonValue(), (body) => {
      const named = topLevelModel(body)
      const model = typeof body === "object" && body !== null && !Array.isArray(body) ? body["model"] : undefined
      expect(named).toBe(typeof model === "string" && model !== "" ? model : undefined)
    }))
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.object(), (model, rest) => {
      expect(topLevelModel({ ...rest, model })).toBe(model)
    }))
  })
})
