/**
 * The console's one way to the admin API (docs/DESIGN.md §6). A console
 * session rides on its HttpOnly cookie, which no script can read; its CSRF
 * token lives in memory only and goes with every unsafe request. The
 * operator's pasted token is kept for the tab (sessionStorage) and sent as a
 * bearer token. Nothing here ever stores a key's secret. What the API
 * answers is typed by the server's own views (src/domain/views.ts), imported
 * as types alone: they are erased from the bundle, which holds no server code.
 */

import type { Limits } from "../src/domain/Limits.ts"
import type { AccountView, KeyView } from "../src/domain/views.ts"

export type LimitName = keyof Limits

/** What a key or an account may do, as the admin API takes and shows it (docs/DESIGN.md §6, §10, §11). */
export type Rules = Pick<KeyView, "allowedModels" | "allowedTools" | "approvalRequired" | "limits">

export type Credentials =
  | { readonly kind: "session"; readonly csrfToken: string; readonly account: AccountView }
  | { readonly kind: "operator"; readonly token: string }

/** An answer in the spec's error body. */
export class ApiError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

const OPERATOR_TOKEN = "parley.operatorToken"

const request = async <T>(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown
): Promise<T> => {
  const response = await fetch(`/admin/v1${path}`, {
    method,
    headers: {
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: "same-origin",
    cache: "no-store"
  })
  const answer = await response.json().catch(() => undefined) as
    | { data?: T; message?: string }
    | undefined
  if (!response.ok) {
    throw new ApiError(response.status, answer?.message ?? `${response.status} ${response.statusText}`)
  }
  return answer?.data as T
}

export interface Client {
  readonly get: <T>(path: string) => Promise<T>
  readonly send: <T>(method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown) => Promise<T>
}

/** A client for these credentials; a 401 (session ended, token wrong) signs the console out. */
export const makeClient = (credentials: Credentials, signedOut: () => void): Client => {
  const headers = (unsafe: boolean): Record<string, string> =>
    credentials.kind === "operator"
      ? { authorization: `Bearer ${credentials.token}` }
      : unsafe
      ? { "x-csrf-token": credentials.csrfToken }
      : {}
  const guarded = <T>(answer: Promise<T>) =>
    answer.catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 401) signedOut()
      throw error
    })
  return {
    get: (path) => guarded(request("GET", path, headers(false))),
    send: (method, path, body) => guarded(request(method, path, headers(true), body))
  }
}

export const signIn = (email: string, password: string): Promise<Credentials> =>
  request<{ csrfToken: string; account: AccountView }>("POST", "/session", {}, { email, password })
    .then(({ csrfToken, account }) => ({ kind: "session", csrfToken, account }))

/** Checks a pasted operator token on an operator-only route before keeping it. */
export const operatorSignIn = async (token: string): Promise<Credentials> => {
  await request("GET", "/accounts", { authorization: `Bearer ${token}` })
  sessionStorage.setItem(OPERATOR_TOKEN, token)
  return { kind: "operator", token }
}

export const storedOperator = (): Credentials | undefined => {
  const token = sessionStorage.getItem(OPERATOR_TOKEN)
  return token === null ? undefined : { kind: "operator", token }
}

export const forgetOperator = () => sessionStorage.removeItem(OPERATOR_TOKEN)

/** Ends the session on the server too; the operator's token is simply forgotten (by the caller). */
export const signOut = async (client: Client, credentials: Credentials): Promise<void> => {
  if (credentials.kind === "session") await client.send("DELETE", "/session").catch(() => undefined)
}

/** The ledger's routes answer 404 until usage is recorded there: nothing to show yet. */
export const orNothingYet = <T>(answer: Promise<T>): Promise<T | undefined> =>
  answer.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return undefined
    throw error
  })
