import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bodyFields } from "../domain/generators.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, postJson } from "../support/http.ts"
import { makeTestTool } from "../support/tools.ts"

let gateway: TestGateway
let secret: string

beforeAll(async () => {
  gateway = await startGateway({ tools: [makeTestTool({ name: "echo" })] })
  ;({ secret } = await gateway.createKey())
  // Anything that does reach the model gets a plain answer.
  gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
})
afterAll(() => gateway.close())

const valid = { model: "test/m1", messages: [{ role: "user", content: "hi" }], stream: false, validateOnly: true }

/** A valid body with one field replaced by an arbitrary JSON value. */
const mutated = fc.tuple(
  fc.constantFrom(...bodyFields),
  fc.jsonValue()
).map(([field, value]) => ({ ...valid, [field]: value }))

const mutatedMessage = fc.tuple(fc.constantFrom("role", "content", "parts", "id"), fc.jsonValue()).map((
  [field, value]
) => ({
  ...valid,
  messages: [{ role: "user", content: "hi", [field]: value }]
}))

const send = async (body: unknown) => {
  const response = await postJson(`${gateway.url}/api/v1/chat`, body, bearer(secret))
  const text = await response.text()
  return { status: response.status, text }
}

describe("random and mutated request bodies", () => {
  it("never produce a 5xx: each is 200 or a 4xx in the error body shape", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), mutated, mutatedMessage), async (body) => {
        const { status, text } = await send(body)
        expect(status === 200 || (status >= 400 && status < 500)).toBe(true)
        if (status !== 200) {
          const error = JSON.parse(text)
          expect(error.statusCode).toBe(status)
          expect(typeof error.message).toBe("string")
          expect(typeof error.correlationId).toBe("string")
        }
      }),
      { numRuns: 150 }
    )
  })

  it("turn random bytes into 400 Malformed JSON", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }).filter((s) => {
          try {
            JSON.parse(s)
            return false
          } catch {
            return true
          }
        }),
        async (raw) => {
          const { status, text } = await send(raw)
          expect(status).toBe(400)
          expect(JSON.parse(text).message).toMatch(/^Malformed JSON body/)
        }
      ),
      { numRuns: 100 }
    )
  })
})
