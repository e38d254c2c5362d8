import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { rmSync } from "node:fs"
import { expect } from "vitest"
import type { AppConfig } from "../../src/config/AppConfig.ts"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { makeSettings } from "../../src/sandbox/SandboxSettings.ts"
import { dataDirectory, testLimits } from "../sandbox/support.ts"
import { urlWithSchema, withFreshSchema } from "../store/postgres.ts"
import { type GatewayOptions, startGateway, type TestGateway } from "../support/gateway.ts"

/**
 * Several gateway instances on one Postgres (docs/DESIGN.md §8 "Many
 * instances"), for the tests that a change made through one reaches the others.
 */
export const ADMIN_TOKEN = "op-token-many-instances-5d2e"
export const KEPT_MS = 5_000

export const admin = async (gateway: TestGateway, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${gateway.url}/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return (await response.json()).data
}

/** The model ids the key sees at this instance, or the status when refused. */
export const models = async (gateway: TestGateway, secret: string): Promise<ReadonlyArray<string> | number> => {
  const response = await fetch(`${gateway.url}/api/v1/models`, { headers: { authorization: `Bearer ${secret}` } })
  if (response.status !== 200) return response.status
  return (await response.json()).data.models.map((model: { id: string }) => model.id)
}

/** Milliseconds until `check` holds, polling; undefined past the deadline. */
export const timeUntil = async (deadlineMs: number, check: () => Promise<boolean>): Promise<number | undefined> => {
  const start = Date.now()
  while (Date.now() - start < deadlineMs) {
    if (await check()) return Date.now() - start
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return undefined
}

export const refusedEverywhere = (gateways: ReadonlyArray<TestGateway>, secret: string) => async () =>
  (await Promise.all(gateways.map((gateway) => models(gateway, secret)))).every((answer) => answer === 401)

/** Instances one after the other (each migrates the schema first), all with the same settings (and providers). */
export const startInstances = async (
  urls: ReadonlyArray<string>,
  keyCacheTtlMs = KEPT_MS,
  config: Partial<AppConfig["Service"]> = {},
  providers: GatewayOptions["providers"] = []
) => {
  const gateways: Array<TestGateway> = []
  for (const databaseUrl of urls) {
    gateways.push(
      await startGateway({
        databaseUrl,
        providers,
        config: { ...config, adminToken: Redacted.make(ADMIN_TOKEN), keyCacheTtlMs }
      })
    )
  }
  return gateways
}

/**
 * An instance on the shared database whose sandboxes live in a folder of its
 * own, as on its own host; `id` is its PARLEY_INSTANCE_ID. Closing it
 * deletes the folder.
 */
export const startSandboxInstance = async (
  databaseUrl: string,
  id: string,
  config: Partial<AppConfig["Service"]> = {}
): Promise<TestGateway> => {
  const { base, sandboxes: root } = dataDirectory()
  const gateway = await startGateway({
    databaseUrl,
    config: { adminToken: Redacted.make(ADMIN_TOKEN), ...config },
    sandboxes: SandboxProvider.layerLocal(makeSettings({ root, instance: id, limits: testLimits }))
  })
  return {
    ...gateway,
    close: async () => {
      await gateway.close()
      rmSync(base, { recursive: true, force: true })
    }
  }
}

export const closeAll = (gateways: ReadonlyArray<TestGateway>) =>
  Promise.all(gateways.map((gateway) => gateway.close()))

/** Within a fresh schema: `use` gets the schema's URL and a client of the test database. */
export const inFreshSchema = (use: (url: string, schema: string, sql: SqlClient.SqlClient) => Promise<void>) =>
  withFreshSchema((schema) =>
    Effect.flatMap(
      Effect.service(SqlClient.SqlClient),
      (sql) => Effect.promise(() => use(urlWithSchema(schema), schema, sql))
    )
  )
