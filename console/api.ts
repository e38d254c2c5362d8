/**
 * The console's one way to the admin API (docs/DESIGN.md §6). A console
 * session rides on its HttpOnly cookie, which no script can read; its CSRF
 * token lives in memory only and goes with every unsafe request. The
 * operator's pasted token is kept for the tab (sessionStorage) and sent as a
 * bearer token. Nothing here ever stores a key's secret.
 */

export interface Account {
  readonly id: string
  readonly name: string
  readonly email: string | null
  readonly status: "active" | "disabled"
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  readonly approvalRequired: ReadonlyArray<string>
  readonly limits: Limits
  readonly createdAt: string
}

/** docs/DESIGN.md §11: each optional; absent is no limit. */
export interface Limits {
  readonly requestsPerMinute?: number
  readonly concurrentRequests?: number
  readonly tokensPerDay?: number
  readonly costPerMonthUsd?: number
}

export type LimitName = keyof Limits

/** What a key or an account may do, as the admin API takes and shows it (docs/DESIGN.md §6, §10, §11). */
export interface Rules {
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  readonly approvalRequired: ReadonlyArray<string>
  readonly limits: Limits
}

/** GET …/limits: the limits and the current use of those that are counted. */
export interface LimitsStatus {
  readonly limits: Limits
  readonly consumption: Partial<
    Record<LimitName, { readonly used: number; readonly limit: number; readonly resetAt?: string }>
  >
}

export interface Key {
  readonly id: string
  readonly accountId: string
  readonly name: string
  readonly prefix: string
  readonly status: "active" | "inactive" | "revoked"
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  readonly approvalRequired: ReadonlyArray<string>
  readonly limits: Limits
  readonly createdAt: string
  readonly lastUsedAt: string | null
  readonly expiresAt: string | null
}

export interface Catalog {
  readonly models: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly tools: ReadonlyArray<CatalogTool>
}

/** A built-in tool, or an MCP server's tool or `<server>__*` (category `mcp`, `server` set). */
export interface CatalogTool {
  readonly name: string
  readonly description: string
  readonly category: string
  readonly server?: string
}

export interface UsageRow {
  readonly bucket: string
  readonly requests: number
  readonly errors: number
  readonly inputTokens: number
  readonly outputTokens: number
  readonly totalTokens: number
  readonly toolCalls: number
  readonly costUsd: number | null
}

/** A row of the usage ledger (docs/DESIGN.md §7). */
export interface RequestRow {
  readonly time: string
  readonly correlationId: string
  readonly keyId: string
  readonly model: string | null
  readonly status: number
  readonly outcome: string
  readonly totalTokens: number | null
  readonly steps: number
  readonly durationMs: number
  readonly toolCalls: Readonly<Record<string, number>>
  readonly costUsd: number | null
}

/** A server's tool by its parley name (`<server>__<tool>`); a held-back one changed its schema and waits for a refresh. */
export interface McpServerTool {
  readonly name: string
  readonly heldBack: boolean
}

/**
 * A registered MCP server as `/admin/v1/mcp-servers` shows it (docs/DESIGN.md
 * §9): header names only, never their values; a config-file server
 * (`source: "config"`) is read-only there, but may be refreshed.
 */
export interface McpServer {
  readonly id: string
  readonly source: "config" | "api"
  readonly transport: "http" | "stdio"
  /** null for a stdio server. */
  readonly url: string | null
  readonly headerNames: ReadonlyArray<string>
  readonly enabled: boolean
  readonly status: "reachable" | "unreachable" | "disabled"
  /** Why it is unreachable. */
  readonly reason?: string
  readonly tools: ReadonlyArray<McpServerTool>
}

export interface Sandbox {
  readonly id: string
  readonly accountId: string | null
  readonly desktop: boolean
  readonly network: boolean
  readonly createdAt: string
  readonly owner: "account" | "key"
  readonly keyId?: string
}

export type Credentials =
  | { readonly kind: "session"; readonly csrfToken: string; readonly account: Account }
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
  request<{ csrfToken: string; account: Account }>("POST", "/session", {}, { email, password })
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
