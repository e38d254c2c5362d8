import { Clock, Effect, Redacted } from "effect"
import { createHash } from "node:crypto"
import { DEFAULT_ACCOUNT_ID } from "../domain/Account.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import { isRecord } from "../domain/isRecord.ts"
import { readBody, send } from "../net/httpClient.ts"
import { AuthServiceUnavailable, InvalidApiKey } from "./authErrors.ts"

/**
 * External authentication by RFC 7662 token introspection (docs/DESIGN.md §6):
 * a bearer token that is not a local key is sent to the operator's
 * authorization server, which says whether it is active and what it may use.
 */
export interface IntrospectionSettings {
  readonly url: string
  /** Sent as `Authorization: Bearer …` to the introspection endpoint. */
  readonly token?: Redacted.Redacted<string> | undefined
  readonly timeoutMs?: number | undefined
}

const TIMEOUT_MS = 2_000
const ACTIVE_TTL_MS = 60_000
const INACTIVE_TTL_MS = 5_000
// Bounded, so random tokens cannot grow memory; the oldest answer goes first.
const CAPACITY = 10_000
// An introspection answer is a small JSON object; anything longer is not one.
const MAX_ANSWER_BYTES = 64 * 1024

type Answer = { readonly key: ApiKey; readonly until: number } | { readonly key: null; readonly until: number }

/** `parley_models` / `parley_tools`: space-separated or an array; anything else (or absent) allows nothing. */
export const allowListClaim = (value: unknown): ReadonlyArray<string> => {
  if (typeof value === "string") return value.split(/\s+/).filter((entry) => entry !== "")
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === "string" && entry !== "")
  return []
}

/** What an answer means at `now`, and until when that may be trusted. */
export const readAnswer = (body: unknown, tokenHash: string, now: number): Answer => {
  const inactive = { key: null, until: now + INACTIVE_TTL_MS }
  if (!isRecord(body) || body.active !== true) return inactive
  const expiresAt = typeof body.exp === "number" ? body.exp * 1000 : undefined
  if (expiresAt !== undefined && expiresAt <= now) return inactive
  const key: ApiKey = {
    id: `ext_${tokenHash.slice(0, 16)}`,
    accountId: typeof body.sub === "string" && body.sub !== "" ? body.sub : DEFAULT_ACCOUNT_ID,
    name: typeof body.client_id === "string" ? body.client_id : "introspected",
    prefix: "",
    status: "active",
    allowedModels: allowListClaim(body.parley_models),
    allowedTools: allowListClaim(body.parley_tools),
    approvalRequired: [],
    limits: {},
    createdAt: new Date(now),
    lastUsedAt: null,
    expiresAt: expiresAt === undefined ? null : new Date(expiresAt)
  }
  return { key, until: Math.min(now + ACTIVE_TTL_MS, expiresAt ?? Infinity) }
}

const ask = (settings: IntrospectionSettings, token: string): Promise<unknown> => {
  const signal = AbortSignal.timeout(settings.timeoutMs ?? TIMEOUT_MS)
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json"
  }
  if (settings.token !== undefined) headers.authorization = `Bearer ${Redacted.value(settings.token)}`
  const body = new URLSearchParams({ token, token_type_hint: "access_token" }).toString()
  return send(new URL(settings.url), { method: "POST", headers, body, signal }).then(async (exchange) => {
    const text = (await readBody(exchange, signal, MAX_ANSWER_BYTES)).toString("utf8")
    const status = exchange.response.statusCode ?? 0
    if (status !== 200) throw new Error(`answered HTTP ${status}`)
    return JSON.parse(text) as unknown
  })
}

/** Checks bearer tokens against the service, caching answers within the bounds docs/DESIGN.md §6 sets. */
export const makeIntrospection = (settings: IntrospectionSettings) => {
  const answers = new Map<string, Answer>()
  return Effect.fnUntraced(function*(token: string) {
    const tokenHash = createHash("sha256").update(token, "utf8").digest("hex")
    const cached = answers.get(tokenHash)
    let answer: Answer
    if (cached !== undefined && cached.until > (yield* Clock.currentTimeMillis)) {
      answer = cached
    } else {
      const body = yield* Effect.tryPromise({
        try: () => ask(settings, token),
        // The reason names the failure, never the token.
        catch: (error) =>
          new AuthServiceUnavailable({ reason: error instanceof Error ? error.message : "introspection failed" })
      })
      answer = readAnswer(body, tokenHash, yield* Clock.currentTimeMillis)
      answers.delete(tokenHash)
      if (answers.size >= CAPACITY) answers.delete(answers.keys().next().value!)
      answers.set(tokenHash, answer)
    }
    if (answer.key === null) return yield* new InvalidApiKey()
    return answer.key
  })
}
