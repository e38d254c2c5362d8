import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"

/**
 * The schema, as numbered migrations that run once each, in order, on SQLite
 * and Postgres alike. Append new migrations; never edit an applied one.
 */
export const migrations = {
  "1_create_api_keys": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Postgres keeps real instants; SQLite stores ISO-8601 text, which sorts correctly.
    const timestamp = sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" })
    yield* sql.unsafe(`
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        secret_hash TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'revoked')),
        allowed_models TEXT NOT NULL,
        allowed_tools TEXT NOT NULL,
        created_at ${timestamp} NOT NULL,
        last_used_at ${timestamp},
        expires_at ${timestamp}
      )
    `)
  }),
  // docs/DESIGN.md §6: accounts own keys; keys made before them belong to `default`,
  // whose allow-lists admit everything so those keys keep working as they were.
  "2_create_accounts": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const timestamp = sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" })
    yield* sql.unsafe(`
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT UNIQUE,
        password_hash TEXT,
        status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
        allowed_models TEXT NOT NULL,
        allowed_tools TEXT NOT NULL,
        created_at ${timestamp} NOT NULL
      )
    `)
    yield* sql`INSERT INTO accounts ${
      sql.insert({
        id: "default",
        name: "default",
        email: null,
        password_hash: null,
        status: "active",
        allowed_models: "[\"*\"]",
        allowed_tools: "[\"*\"]",
        created_at: new Date()
      })
    }`
    yield* sql.unsafe(`ALTER TABLE api_keys ADD COLUMN account_id TEXT NOT NULL DEFAULT 'default'`)
    // Rotation with grace: the previous secret keeps working until previous_expires_at.
    yield* sql.unsafe(`ALTER TABLE api_keys ADD COLUMN previous_secret_hash TEXT`)
    yield* sql.unsafe(`ALTER TABLE api_keys ADD COLUMN previous_expires_at ${timestamp}`)
    yield* sql.unsafe(`CREATE INDEX api_keys_account ON api_keys (account_id)`)
    yield* sql.unsafe(`CREATE INDEX api_keys_previous_hash ON api_keys (previous_secret_hash)`)
    // Console sessions (docs/DESIGN.md §6): only the SHA-256 of the cookie's token is kept.
    yield* sql.unsafe(`
      CREATE TABLE console_sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        created_at ${timestamp} NOT NULL,
        expires_at ${timestamp} NOT NULL
      )
    `)
  }),
  // The usage ledger (docs/DESIGN.md §7): one row per authenticated POST /chat, never content or secrets.
  "3_create_usage_events": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
    yield* sql.unsafe(`
      CREATE TABLE usage_events (
        id ${pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY"},
        time ${pg ? "TIMESTAMPTZ" : "TEXT"} NOT NULL,
        account_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        correlation_id TEXT NOT NULL,
        model TEXT,
        status INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        finish_reason TEXT,
        input_tokens INTEGER,
        output_tokens INTEGER,
        total_tokens INTEGER,
        reasoning_tokens INTEGER,
        cached_input_tokens INTEGER,
        tool_calls TEXT NOT NULL,
        tool_call_count INTEGER NOT NULL,
        steps INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        first_byte_ms INTEGER,
        pruned ${pg ? "BOOLEAN" : "INTEGER"} NOT NULL,
        cost_usd ${pg ? "DOUBLE PRECISION" : "REAL"}
      )
    `)
    yield* sql.unsafe(`CREATE INDEX usage_events_time ON usage_events (time)`)
    yield* sql.unsafe(`CREATE INDEX usage_events_key_time ON usage_events (key_id, time)`)
    yield* sql.unsafe(`CREATE INDEX usage_events_account_time ON usage_events (account_id, time)`)
    yield* sql.unsafe(`CREATE INDEX usage_events_correlation ON usage_events (correlation_id)`)
  }),
  // docs/DESIGN.md §8: every instance on one database sees every sandbox and the instance holding it.
  "4_create_sandboxes": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const timestamp = sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" })
    yield* sql.unsafe(`
      CREATE TABLE sandboxes (
        id TEXT PRIMARY KEY,
        owner_key_id TEXT,
        owner_account_id TEXT,
        desktop BOOLEAN NOT NULL,
        network BOOLEAN NOT NULL,
        created_at ${timestamp} NOT NULL,
        uid INTEGER NOT NULL,
        instance TEXT NOT NULL
      )
    `)
  }),
  // docs/DESIGN.md §10: tools that wait for a person, per key and per account; and the approval
  // ids already honoured, each kept until it could no longer be honoured anyway (24 hours after issue).
  "5_tool_approvals": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const timestamp = sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" })
    yield* sql.unsafe(`ALTER TABLE api_keys ADD COLUMN approval_required TEXT NOT NULL DEFAULT '[]'`)
    yield* sql.unsafe(`ALTER TABLE accounts ADD COLUMN approval_required TEXT NOT NULL DEFAULT '[]'`)
    yield* sql.unsafe(`
      CREATE TABLE used_approvals (
        id TEXT PRIMARY KEY,
        expires_at ${timestamp} NOT NULL
      )
    `)
    yield* sql.unsafe(`CREATE INDEX used_approvals_expiry ON used_approvals (expires_at)`)
  }),
  // docs/DESIGN.md §11: limits per key and per account, JSON; '{}' is no limit.
  "6_limits": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`ALTER TABLE api_keys ADD COLUMN limits TEXT NOT NULL DEFAULT '{}'`)
    yield* sql.unsafe(`ALTER TABLE accounts ADD COLUMN limits TEXT NOT NULL DEFAULT '{}'`)
  }),
  // docs/DESIGN.md §11: the shared counters when no Redis is configured. A scope ("key:ID",
  // "account:ID") has one row, locked while its window is counted, and its requests in flight.
  "7_limit_counters": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`CREATE TABLE limit_scopes (scope TEXT PRIMARY KEY, in_flight INTEGER NOT NULL)`)
    yield* sql.unsafe(`CREATE TABLE limit_hits (scope TEXT NOT NULL, at BIGINT NOT NULL)`)
    yield* sql.unsafe(`CREATE INDEX limit_hits_scope_at ON limit_hits (scope, at)`)
  }),
  // docs/DESIGN.md §9: MCP servers registered through the admin API. `headers` is JSON
  // [{name, value}] whose values are sealed under PARLEY_SECRET_KEY (auth/sealing.ts);
  // `revision` changes with every change or refresh, so each instance knows when to reconnect.
  "8_mcp_servers": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const timestamp = sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" })
    yield* sql.unsafe(`
      CREATE TABLE mcp_servers (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        headers TEXT NOT NULL,
        enabled BOOLEAN NOT NULL,
        revision TEXT NOT NULL,
        created_at ${timestamp} NOT NULL,
        updated_at ${timestamp} NOT NULL
      )
    `)
  }),
  // docs/DESIGN.md §11: a budget's count per scope and window ("tokensPerDay:key:ID:2026-11-24"),
  // in integer units (tokens, micro-dollars), deleted once its window has reset; §7: the
  // limit that refused a request, on its ledger row.
  "9_budgets": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(
      `CREATE TABLE budget_counters (counter TEXT PRIMARY KEY, used BIGINT NOT NULL, expires_at BIGINT NOT NULL)`
    )
    yield* sql.unsafe(`ALTER TABLE usage_events ADD COLUMN refused_limit TEXT`)
  }),
  // docs/DESIGN.md §6: failed console sign-ins per hashed email or address, shared by every
  // instance when no Redis is configured; a row is deleted once it has gone quiet.
  "10_failure_counters": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(
      `CREATE TABLE failure_counters (counter TEXT PRIMARY KEY, failures INTEGER NOT NULL, last_at BIGINT NOT NULL)`
    )
    yield* sql.unsafe(`CREATE INDEX failure_counters_last_at ON failure_counters (last_at)`)
  }),
  // docs/DESIGN.md §7, §14: how each request came in (`ui`, `chat-completions`, `responses`, `messages`, `mcp`).
  // Rows written before are told apart by what they say: an /mcp tools/call is answered 200 without a first
  // byte, finish reason or step (a chat answered 200 always wrote one), or is 499 with a tool run and no step
  // (a chat's tools run only after a step). The rest, a 499 chat or tool call that ran nothing among them, are `ui`.
  "11_usage_protocol": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`ALTER TABLE usage_events ADD COLUMN protocol TEXT NOT NULL DEFAULT 'ui'`)
    yield* sql.unsafe(`
      UPDATE usage_events SET protocol = 'mcp'
      WHERE first_byte_ms IS NULL AND finish_reason IS NULL AND steps = 0
        AND (status = 200 OR (status = 499 AND tool_call_count > 0))
    `)
  }),
  // docs/DESIGN.md §7, §15: the provider model that served a request, a route's target; null on older rows.
  "12_usage_target": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`ALTER TABLE usage_events ADD COLUMN target TEXT`)
  }),
  // docs/DESIGN.md §14: the Responses door's stored responses, per key, until `expires_at` (epoch ms):
  // the input items (the whole conversation, the previous response's prepended) and the response object, as JSON.
  "13_stored_responses": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`
      CREATE TABLE stored_responses (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        input TEXT NOT NULL,
        response TEXT NOT NULL
      )
    `)
    yield* sql.unsafe(`CREATE INDEX stored_responses_expiry ON stored_responses (expires_at)`)
  }),
  // docs/DESIGN.md §16: the kept streams of runs that outlive their client (when no Redis is configured):
  // the run kept under each id (a chat id), and its chunks by run, numbered from 1. Times in epoch ms.
  "14_run_streams": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`
      CREATE TABLE run_streams (
        id TEXT PRIMARY KEY,
        run TEXT NOT NULL UNIQUE,
        key_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'ended', 'cut')),
        started_at BIGINT NOT NULL,
        ended_at BIGINT
      )
    `)
    yield* sql.unsafe(
      `CREATE TABLE run_stream_chunks (run TEXT NOT NULL, seq INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (run, seq))`
    )
  }),
  // docs/DESIGN.md §16: whether a stop ended a kept run, and a key's runs listed for the console.
  "15_run_streams_by_key": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`ALTER TABLE run_streams ADD COLUMN stopped INTEGER NOT NULL DEFAULT 0`)
    yield* sql.unsafe(`CREATE INDEX run_streams_key ON run_streams (key_id, started_at)`)
  }),
  // docs/DESIGN.md §16: the door that made a kept run, whose stream a replay is framed as (issue 34).
  "16_run_streams_protocol": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`ALTER TABLE run_streams ADD COLUMN protocol TEXT NOT NULL DEFAULT 'ui'`)
  }),
  // docs/DESIGN.md §3.13: a sandbox's record says its backend, the instance that alone reaches it (null:
  // every instance, `docker`) and when it was last used; what the `local` backend keeps beside it (the host
  // uid) moves to a table of its own. The deployment id scopes the labels of the containers parley makes,
  // so gateways on other databases that share an engine leave each other's containers alone.
  "17_sandbox_backends": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const timestamp = sql.onDialectOrElse({ pg: () => "TIMESTAMPTZ", orElse: () => "TEXT" })
    yield* sql.unsafe(`
      CREATE TABLE sandboxes_17 (
        id TEXT PRIMARY KEY,
        owner_key_id TEXT,
        owner_account_id TEXT,
        desktop BOOLEAN NOT NULL,
        network BOOLEAN NOT NULL,
        backend TEXT NOT NULL,
        instance TEXT,
        created_at ${timestamp} NOT NULL,
        used_at ${timestamp} NOT NULL
      )
    `)
    // Counted as used now: PARLEY_SANDBOX_IDLE starts with the upgrade, rather than reclaiming every sandbox
    // older than it at the first start.
    yield* sql`
      INSERT INTO sandboxes_17 (id, owner_key_id, owner_account_id, desktop, network, backend, instance, created_at, used_at)
      SELECT id, owner_key_id, owner_account_id, desktop, network, 'local', instance, created_at, ${new Date()}
      FROM sandboxes
    `
    yield* sql.unsafe(`CREATE TABLE local_sandboxes (id TEXT PRIMARY KEY, uid INTEGER NOT NULL)`)
    yield* sql.unsafe(`INSERT INTO local_sandboxes (id, uid) SELECT id, uid FROM sandboxes`)
    // A new table renamed, not the old one: Postgres keeps an index's name (sandboxes_pkey) across a rename.
    yield* sql.unsafe(`DROP TABLE sandboxes`)
    yield* sql.unsafe(`ALTER TABLE sandboxes_17 RENAME TO sandboxes`)
    yield* sql.unsafe(`CREATE INDEX sandboxes_used ON sandboxes (used_at)`)
    yield* sql.unsafe(`CREATE TABLE sandbox_deployment (id TEXT PRIMARY KEY)`)
    yield* sql`INSERT INTO sandbox_deployment (id) VALUES (${`dep_${randomBytes(8).toString("hex")}`})`
  })
}

/** The table that records applied migrations. */
export const migrationsTable = "parley_migrations"

/** Applies pending migrations; concurrent starters (server and CLI) are safe. */
export const migrate = Migrator.make({})({
  loader: Migrator.fromRecord(migrations),
  table: migrationsTable
})
