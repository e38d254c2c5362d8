import { expect } from "vitest"

/** What a fuzzed request must be answered: `ok` 200, `refused` a documented 4xx, `either` one of them. */
export type Expected = "ok" | "refused" | "either"

/** One fuzzed request to a chat door. */
export interface DoorCase {
  readonly path: string
  readonly text: string
  readonly expected: Expected
  /** Headers beside the key's (`X-Correlation-Id`). */
  readonly headers: Readonly<Record<string, string>>
  /** Names `X-Tools-Skipped` must list when the answer is 200 (the body asked for tools parley skips). */
  readonly skipped?: ReadonlyArray<string> | undefined
}

/** What a client's mistake may answer (a provider's failures aside). */
const DOCUMENTED = new Set([200, 400, 401, 403, 413])
const SAFE_TOKEN = /^[A-Za-z0-9._:/@+-]{1,128}$/
const TOKEN_LIST = /^[A-Za-z0-9._:/@+%~,-]+$/

/** An error answer's `{message, type}` in the door's envelope; throws when it is not the door's. */
export type ErrorOf = (body: any, status: number) => { readonly message: unknown; readonly type: unknown }

/**
 * The invariants of a chat door's answer to any body (docs/DESIGN.md §14,
 * §3.24): a documented status, never a 5xx; 200 for a valid body and never a
 * 2xx for an invalid one; an error in the door's envelope; headers made only
 * of safe tokens, `X-Tools-Skipped` listing what the body made parley skip.
 */
export const checkAnswer = (
  fuzzCase: DoorCase,
  answer: { readonly status: number; readonly headers: Headers; readonly text: string },
  errorOf: ErrorOf
) => {
  const { headers, status, text } = answer
  const context = `${status} ${text.slice(0, 300)}\nfor ${fuzzCase.path} ${JSON.stringify(fuzzCase.headers)} ${
    fuzzCase.text.slice(0, 600)
  }`
  expect(DOCUMENTED.has(status), context).toBe(true)
  if (fuzzCase.expected === "ok") expect(status, context).toBe(200)
  if (fuzzCase.expected === "refused") expect(status, context).toBeGreaterThanOrEqual(400)
  const correlationId = headers.get("x-correlation-id")
  if (status !== 401) expect(correlationId, context).toMatch(SAFE_TOKEN)
  const sent = fuzzCase.headers["x-correlation-id"]
  if (status !== 401 && sent !== undefined && SAFE_TOKEN.test(sent)) expect(correlationId, context).toBe(sent)
  const skipped = headers.get("x-tools-skipped")
  if (skipped !== null) expect(skipped, context).toMatch(TOKEN_LIST)
  if (status === 200 && fuzzCase.skipped !== undefined) {
    expect(skipped?.split(",").map(decodeURIComponent), context).toEqual(expect.arrayContaining([...fuzzCase.skipped]))
  }
  if (status !== 200 && headers.get("content-type")?.includes("json") === true) {
    const error = errorOf(JSON.parse(text), status)
    expect(typeof error.message, context).toBe("string")
    expect(typeof error.type, context).toBe("string")
  }
}

/** How many fuzzed requests go between two checks that the gateway still answers `/health`. */
export const HEALTH_EVERY = 50

/** The process is alive and answers `/health` (after every batch of fuzzed requests). */
export const expectHealthy = async (url: string) => {
  const response = await fetch(`${url}/health`)
  expect(response.status, "GET /health after a batch of fuzzed requests").toBe(200)
}
