import fc from "fast-check"
import { expect } from "vitest"
import { startGateway, type TestGateway } from "../gateway.ts"
import { makeTestTool } from "../tools.ts"
import { chatCases, FUZZ_BODY_LIMIT, type FuzzCase } from "./chatBodies.ts"

/** The statuses the README documents for a client's request (a provider's failures aside). */
const DOCUMENTED = new Set([200, 400, 401, 403, 413])

/** A gateway as chatBodies.ts expects it, answering "ok" to whatever reaches the model. */
export const startFuzzGateway = async () => {
  const gateway = await startGateway({ tools: [makeTestTool({ name: "echo" })], bodyLimitBytes: FUZZ_BODY_LIMIT })
  gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
  const { secret } = await gateway.createKey({ models: ["test/*"], tools: ["echo"] })
  return { gateway, secret }
}

const headerFor = (authorization: FuzzCase["authorization"], secret: string): Record<string, string> => {
  switch (authorization) {
    case "valid":
      return { authorization: `Bearer ${secret}` }
    case "missing":
      return {}
    case "basic":
      return { authorization: `Basic ${Buffer.from("user:pass").toString("base64")}` }
    case "unknown key":
      return { authorization: `Bearer ${secret.slice(0, -4)}xxxx` }
  }
}

/**
 * Posts one case and checks its answer: a valid body is 200 and read to its
 * end; anything else is a documented error status in the spec's error body.
 */
export const postCase = async (gateway: TestGateway, secret: string, fuzzCase: FuzzCase) => {
  const response = await fetch(`${gateway.url}/api/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headerFor(fuzzCase.authorization, secret) },
    body: fuzzCase.body
  })
  const text = await response.text()
  const context = `${response.status} ${text.slice(0, 300)}\nfor ${fuzzCase.body.slice(0, 600)}`
  expect(DOCUMENTED.has(response.status), context).toBe(true)
  if (fuzzCase.valid) expect(response.status, context).toBe(200)
  if (fuzzCase.authorization !== "valid") expect(response.status, context).toBe(401)
  if (response.status !== 200) {
    const error = JSON.parse(text)
    expect(error.statusCode, context).toBe(response.status)
    expect(typeof error.message, context).toBe("string")
  }
  return response.status
}

/** Fuzzes the gateway with `runs` cases, one at a time; resolves to the answers counted by status. */
export const fuzzChat = async (
  gateway: TestGateway,
  secret: string,
  runs: number,
  seed?: number
): Promise<Record<number, number>> => {
  const statuses: Record<number, number> = {}
  await fc.assert(
    fc.asyncProperty(chatCases, async (fuzzCase) => {
      const status = await postCase(gateway, secret, fuzzCase)
      statuses[status] = (statuses[status] ?? 0) + 1
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }), endOnFailure: true }
  )
  return statuses
}
