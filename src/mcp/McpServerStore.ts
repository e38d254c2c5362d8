import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { randomBytes } from "node:crypto"
import { makeSealer } from "../auth/sealing.ts"
import { SecretKey } from "../auth/SecretKey.ts"

/** An MCP server registered through the admin API (docs/DESIGN.md §9), as stored. */
export interface StoredMcpServer {
  readonly id: string
  readonly url: string
  /** Header values opened with this instance's PARLEY_SECRET_KEY. */
  readonly headers: Readonly<Record<string, Redacted.Redacted<string>>>
  /** Every header's name, in the order given, including those in `unreadable`. */
  readonly headerNames: ReadonlyArray<string>
  /** Headers whose values do not open: sealed under another PARLEY_SECRET_KEY. */
  readonly unreadable: ReadonlyArray<string>
  readonly enabled: boolean
  /** Changes with every change or refresh of the server. */
  readonly revision: string
}

export interface McpServerInput {
  readonly url: string
  /** Plain values, sealed before they are written. */
  readonly headers: Readonly<Record<string, string>>
  readonly enabled: boolean
}

export type McpServerStoreError = SqlError.SqlError | Schema.SchemaError

const Row = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  headers: Schema.fromJsonString(Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String }))),
  // Postgres answers booleans, SQLite 0 or 1.
  enabled: Schema.Union([Schema.Boolean, Schema.Number]),
  revision: Schema.String
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const newRevision = () => randomBytes(9).toString("base64url")

/** SQL access to `mcp_servers`; header values are sealed at rest and never leave this file unsealed but redacted. */
export class McpServerStore extends Context.Service<McpServerStore, {
  readonly list: Effect.Effect<ReadonlyArray<StoredMcpServer>, McpServerStoreError>
  readonly get: (id: string) => Effect.Effect<Option.Option<StoredMcpServer>, McpServerStoreError>
  readonly insert: (id: string, input: McpServerInput) => Effect.Effect<StoredMcpServer, McpServerStoreError>
  /** Writes what `changes` names and a new revision (none named: a refresh); none when there is no such server. */
  readonly update: (
    id: string,
    changes: Partial<McpServerInput>
  ) => Effect.Effect<Option.Option<StoredMcpServer>, McpServerStoreError>
  /** Whether there was such a server. */
  readonly remove: (id: string) => Effect.Effect<boolean, McpServerStoreError>
}>()("parley/mcp/McpServerStore") {
  static readonly layer = Layer.effect(
    McpServerStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sealer = makeSealer(Redacted.value(yield* SecretKey), "mcp server headers")
      // Bound to the server and the header: a value copied to another row or header does not open.
      const context = (id: string, name: string) => `${id}\n${name.toLowerCase()}`

      const toStored = (row: typeof Row.Type): StoredMcpServer => {
        const headers: Record<string, Redacted.Redacted<string>> = {}
        const unreadable: Array<string> = []
        for (const { name, value } of row.headers) {
          const plain = sealer.open(value, context(row.id, name))
          if (plain === undefined) unreadable.push(name)
          else headers[name] = Redacted.make(plain)
        }
        return {
          id: row.id,
          url: row.url,
          headers,
          headerNames: row.headers.map(({ name }) => name),
          unreadable,
          enabled: Boolean(row.enabled),
          revision: row.revision
        }
      }
      const select = (rows: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
        Effect.map(Effect.flatMap(rows, decodeRows), (decoded) => decoded.map(toStored))
      const get = (id: string) =>
        Effect.map(select(sql`SELECT * FROM mcp_servers WHERE id = ${id}`), (found) => Option.fromNullishOr(found[0]))
      const sealed = (id: string, headers: Readonly<Record<string, string>>) =>
        JSON.stringify(
          Object.entries(headers).map(([name, value]) => ({ name, value: sealer.seal(value, context(id, name)) }))
        )

      const insert = Effect.fn("McpServerStore.insert")(function*(id: string, input: McpServerInput) {
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* sql`INSERT INTO mcp_servers ${
          sql.insert({
            id,
            url: input.url,
            headers: sealed(id, input.headers),
            enabled: input.enabled,
            revision: newRevision(),
            created_at: now,
            updated_at: now
          })
        }`
        return Option.getOrThrow(yield* get(id))
      })

      const update = Effect.fn("McpServerStore.update")(function*(id: string, changes: Partial<McpServerInput>) {
        const columns: Record<string, string | boolean | Date> = {
          revision: newRevision(),
          updated_at: new Date(yield* Clock.currentTimeMillis)
        }
        if (changes.url !== undefined) columns.url = changes.url
        if (changes.headers !== undefined) columns.headers = sealed(id, changes.headers)
        if (changes.enabled !== undefined) columns.enabled = changes.enabled
        yield* sql`UPDATE mcp_servers SET ${sql.update(columns)} WHERE id = ${id}`
        return yield* get(id)
      })

      const remove = Effect.fn("McpServerStore.remove")(function*(id: string) {
        if (Option.isNone(yield* get(id))) return false
        yield* sql`DELETE FROM mcp_servers WHERE id = ${id}`
        return true
      })

      return McpServerStore.of({
        list: select(sql`SELECT * FROM mcp_servers ORDER BY id`),
        get,
        insert,
        update,
        remove
      })
    })
  )
}
