import fc from "fast-check"
import { expect } from "vitest"
import type { TestGateway } from "../gateway.ts"
import { checkAnswer, type ErrorOf, expectHealthy, HEALTH_EVERY } from "./answerCheck.ts"
import { chatCases, type FuzzCase } from "./chatBodies.ts"

export const headerFor = (authorization: FuzzCase["authorization"], secret: string): Record<string, string> => {
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

/** The spec's error body: `{error, message, statusCode}` with the answer's status. */
export const specError: ErrorOf = (body, status) => {
  expect(body.statusCode, JSON.stringify(body)).toBe(status)
  return { message: body.message, type: body.error }
}

/**
 * Posts one case to `/api/v1/chat` at `url` and holds its answer to the
 * fuzz invariants (`checkAnswer`); a case with a bad Authorization is 401.
 */
export const postCase = async (url: string, secret: string, fuzzCase: FuzzCase) => {
  const doorCase = {
    path: "/api/v1/chat",
    text: fuzzCase.body,
    expected: fuzzCase.expected,
    headers: { "x-correlation-id": fuzzCase.correlationId },
    skipped: fuzzCase.skipped
  }
  const response = await fetch(`${url}/api/v1/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headerFor(fuzzCase.authorization, secret), ...doorCase.headers },
    body: fuzzCase.body
  })
  const answer = { status: response.status, headers: response.headers, text: await response.text() }
  checkAnswer(doorCase, answer, specError)
  if (fuzzCase.authorization !== "valid") expect(answer.status, answer.text).toBe(401)
  return answer.status
}

/**
 * Fuzzes the gateway with `runs` cases, one at a time, checking `/health`
 * after every `HEALTH_EVERY`; resolves to the answers counted by status.
 */
export const fuzzChat = async (
  gateway: TestGateway,
  secret: string,
  runs: number,
  seed?: number
): Promise<Record<number, number>> => {
  const statuses: Record<number, number> = {}
  let posted = 0
  await fc.assert(
    fc.asyncProperty(chatCases, async (fuzzCase) => {
      const status = await postCase(gateway.url, secret, fuzzCase)
      statuses[status] = (statuses[status] ?? 0) + 1
      if (++posted % HEALTH_EVERY === 0) await expectHealthy(gateway.url)
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }), endOnFailure: true }
  )
  return statuses
}
