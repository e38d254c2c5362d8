import { Redacted } from "effect"
import { join } from "node:path"
import { expect } from "vitest"
import type { AppConfig } from "../../../src/config/AppConfig.ts"
import { dataDirectory, testSandboxes } from "../../sandbox/support.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { expectDeclared } from "./declaredSchema.ts"

/** A gateway with an operator token and two accounts signed in to the console, for the admin API's tests. */

export const ADMIN_TOKEN = "op-token-7c1e9a40d2b35f86"

export type Caller = "operator" | "a" | "b" | "none"

export interface Session {
  readonly cookie: string
  readonly csrfToken: string
  readonly accountId: string
}

export interface AdminWorld {
  readonly gateway: TestGateway
  readonly sessions: { readonly a: Session; readonly b: Session }
  /** Every answer's text, to check that no secret or hash ever appears. */
  readonly answers: Array<string>
  readonly call: (
    caller: Caller,
    method: string,
    path: string,
    options?: { readonly body?: unknown; readonly csrf?: boolean | string; readonly headers?: Record<string, string> }
  ) => Promise<{ readonly status: number; readonly body: any; readonly headers: Headers }>
}

export const PASSWORD_A = "correct horse battery"
export const PASSWORD_B = "another long password"

const signIn = async (url: string, email: string, password: string): Promise<Session> => {
  const response = await fetch(`${url}/admin/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password })
  })
  expect(response.status).toBe(200)
  const body = await response.json()
  const cookie = response.headers.get("set-cookie")!.split(";", 1)[0]!
  return { cookie, csrfToken: body.data.csrfToken, accountId: body.data.account.id }
}

/** `config`: further settings of the gateway (e.g. the config file's `mcpServers`). */
export const startAdminWorld = async (config: Partial<AppConfig["Service"]> = {}): Promise<AdminWorld> => {
  // One database for the gateway and its sandboxes, as in production.
  const { data, sandboxes } = dataDirectory()
  const gateway = await startGateway({
    config: { ...config, adminToken: Redacted.make(ADMIN_TOKEN) },
    sandboxes: testSandboxes(sandboxes),
    databaseUrl: `sqlite:${join(data, "parley.db")}`
  })
  const answers: Array<string> = []
  let sessions: AdminWorld["sessions"] | undefined
  const call: AdminWorld["call"] = async (caller, method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.body !== undefined) headers["content-type"] = "application/json"
    if (caller === "operator") headers.authorization = `Bearer ${ADMIN_TOKEN}`
    if (caller === "a" || caller === "b") {
      const session = sessions![caller]
      headers.cookie = session.cookie
      if (options.csrf !== false) {
        headers["x-csrf-token"] = typeof options.csrf === "string" ? options.csrf : session.csrfToken
      }
    }
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    })
    const text = await response.text()
    answers.push(text)
    const body = text === "" ? undefined : JSON.parse(text)
    // Every success must be what the contract declares: the handlers render their answers without its schemas.
    if (response.ok && path.startsWith("/admin/v1/")) expectDeclared(method, path, body)
    return { status: response.status, body, headers: response.headers }
  }
  const account = async (name: string, password: string, allowedModels: ReadonlyArray<string>) => {
    const created = await call("operator", "POST", "/admin/v1/accounts", {
      body: { name, email: `${name}@example.com`, password, allowedModels, allowedTools: ["*"] }
    })
    expect(created.status).toBe(201)
    return signIn(gateway.url, `${name}@example.com`, password)
  }
  sessions = { a: await account("ana", PASSWORD_A, ["test/m1"]), b: await account("bo", PASSWORD_B, ["*"]) }
  return { gateway, sessions, answers, call }
}

/** The spec's error body: the named error, its status, and a correlation id except on 401. */
export const expectError = (
  answer: { readonly status: number; readonly body: any; readonly headers: Headers },
  status: number,
  error: string
) => {
  expect(answer.status).toBe(status)
  expect(answer.body).toMatchObject({ error, statusCode: status, message: expect.any(String) })
  if (status === 401) {
    expect(answer.body.correlationId).toBeUndefined()
    expect(answer.headers.get("x-correlation-id")).toBeNull()
  } else {
    expect(answer.body.correlationId).toBe(answer.headers.get("x-correlation-id"))
  }
}

/** Polls `check` until it holds or `ms` pass. */
export const within = async (ms: number, check: () => Promise<boolean>): Promise<boolean> => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return check()
}
