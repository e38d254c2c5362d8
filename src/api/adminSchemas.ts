import { Schema } from "effect"
import { Count } from "../domain/Count.ts"
import { Limits } from "../domain/Limits.ts"
import { chatProtocols, protocols } from "../domain/protocols.ts"
import { outcomes } from "../domain/usageOutcomes.ts"
import { SandboxView } from "./SandboxApi.ts"

/** Bodies and views of the admin API (docs/DESIGN.md §6). Unknown fields are refused where they are decoded. */

const Name = Schema.Trim.pipe(Schema.decodeTo(Schema.NonEmptyString.check(Schema.isMaxLength(200))))
const Email = Schema.Trim.check(
  Schema.isPattern(/^[^\s@]+@[^\s@]+$/, { message: "an email address such as ana@example.com" }),
  Schema.isMaxLength(320)
)
const Password = Schema.String.check(
  Schema.isMinLength(8, { message: "at least 8 characters" }),
  Schema.isMaxLength(1024)
)
const AllowList = Schema.Array(Schema.String).annotate({
  description: "* for all, <provider>/* for a provider's models, or exact names; empty allows nothing"
})
const ApprovalList = Schema.Array(Schema.String).annotate({
  description: "Tools that wait for a person's approval (docs/DESIGN.md §10), as allow-list entries: * for all, " +
    "<server>__* for an MCP server's tools, or exact names; " +
    "a key's list adds to its account's, it never waives one"
})
const Timestamp = Schema.String.annotate({ description: "ISO-8601 instant" })

export const AccountStatusField = Schema.Literals(["active", "disabled"])

export const AccountView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  status: AccountStatusField,
  allowedModels: Schema.Array(Schema.String),
  allowedTools: Schema.Array(Schema.String),
  approvalRequired: Schema.Array(Schema.String),
  limits: Limits,
  createdAt: Timestamp
}).annotate({ identifier: "Account" })

export const KeyView = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  name: Schema.String,
  prefix: Schema.String.annotate({ description: "The first characters of the secret, safe to show" }),
  status: Schema.Literals(["active", "inactive", "revoked"]),
  allowedModels: Schema.Array(Schema.String),
  allowedTools: Schema.Array(Schema.String),
  approvalRequired: Schema.Array(Schema.String),
  limits: Limits,
  createdAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp),
  expiresAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "ApiKey" })

export const SignIn = Schema.Struct({ email: Schema.String, password: Schema.String }).annotate({
  identifier: "SignIn"
})

export const CreateAccount = Schema.Struct({
  name: Name,
  email: Email,
  password: Schema.optional(Password),
  allowedModels: AllowList,
  allowedTools: AllowList,
  approvalRequired: Schema.optional(ApprovalList),
  limits: Schema.optional(Limits)
}).annotate({ identifier: "CreateAccount" })

export const UpdateAccount = Schema.Struct({
  name: Schema.optional(Name),
  status: Schema.optional(AccountStatusField),
  password: Schema.optional(Password),
  allowedModels: Schema.optional(AllowList),
  allowedTools: Schema.optional(AllowList),
  approvalRequired: Schema.optional(ApprovalList),
  limits: Schema.optional(Limits)
}).annotate({ identifier: "UpdateAccount" })

const ExpiresAt = Schema.NullOr(Schema.DateFromString.check(
  Schema.makeFilter((date: Date) => !Number.isNaN(date.getTime()) || "an ISO-8601 instant such as 2030-01-31T00:00:00Z")
)).annotate({
  description: "ISO-8601 instant; null: never"
})

export const CreateKey = Schema.Struct({
  name: Name,
  allowedModels: AllowList,
  allowedTools: AllowList,
  approvalRequired: Schema.optional(ApprovalList),
  limits: Schema.optional(Limits),
  expiresAt: Schema.optional(ExpiresAt),
  accountId: Schema.optional(Schema.String).annotate({
    description: "Operator only; default: the caller's account (the operator's: default)"
  })
}).annotate({ identifier: "CreateKey" })

export const UpdateKey = Schema.Struct({
  name: Schema.optional(Name),
  allowedModels: Schema.optional(AllowList),
  allowedTools: Schema.optional(AllowList),
  approvalRequired: Schema.optional(ApprovalList),
  limits: Schema.optional(Limits),
  expiresAt: Schema.optional(ExpiresAt)
}).annotate({ identifier: "UpdateKey" })

/** 30 days, the longest a rotated secret keeps working. */
export const MAX_GRACE_SECONDS = 30 * 86_400
export const DEFAULT_GRACE_SECONDS = 86_400

export const RotateKey = Schema.Struct({
  graceSeconds: Schema.optional(
    Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_GRACE_SECONDS }))
  )
}).annotate({ identifier: "RotateKey" })

/** What an allow-list may name (docs/DESIGN.md §6): for a session, only what its account admits. */
export const CatalogView = Schema.Struct({
  models: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String })),
  tools: Schema.Array(Schema.Struct({
    name: Schema.String,
    description: Schema.String,
    category: Schema.String.annotate({ description: "mcp for an MCP server's tools and patterns" }),
    server: Schema.optionalKey(Schema.String).annotate({
      description: "The MCP server of an mcp entry; its <server>__* entry stands for all of them"
    })
  }))
}).annotate({ identifier: "AdminCatalog" })

/** One limit's current use: `resetAt` when a unit next frees (absent when none is used, and for concurrentRequests). */
const Consumed = Schema.Struct({
  used: Schema.Finite,
  limit: Schema.Finite,
  resetAt: Schema.optionalKey(Timestamp)
}).annotate({ identifier: "LimitConsumption" })

/**
 * A key's or an account's limits and their current use (docs/DESIGN.md §6,
 * §11): one `consumption` entry per configured limit that is counted.
 */
export const LimitsStatusView = Schema.Struct({
  limits: Limits,
  consumption: Schema.Struct({
    requestsPerMinute: Schema.optionalKey(Consumed),
    concurrentRequests: Schema.optionalKey(Consumed),
    tokensPerDay: Schema.optionalKey(Consumed),
    costPerMonthUsd: Schema.optionalKey(Consumed)
  }).annotate({ description: "One entry per configured limit" })
}).annotate({ identifier: "LimitsStatus" })

/** The public view of a sandbox with its owners, which an operator running many instances lists in one place. */
export const AdminSandboxView = Schema.Struct({
  ...SandboxView.fields,
  owner: SandboxView.fields.owner.annotate({
    description: "key: created by the key keyId; account: the operator's, which every key may use"
  }),
  accountId: Schema.NullOr(Schema.String).annotate({ description: "The account it belongs to; null: the operator's" }),
  keyId: Schema.optionalKey(Schema.String).annotate({ description: "The key that created it (owner key)" })
}).annotate({ identifier: "AdminSandbox" })

/** A key's kept run (docs/DESIGN.md §16), as the console's key page lists it. */
export const KeptRunView = Schema.Struct({
  id: Schema.String.annotate({ description: "The chat id the run was started with" }),
  protocol: Schema.Literals(chatProtocols).annotate({
    description: "The chat door it came in by, which frames its replays"
  }),
  status: Schema.Literals(["running", "ended", "stopped"]).annotate({
    description: "running; stopped: a stop ended it; ended: it finished on its own (or failed)"
  }),
  cut: Schema.Boolean.annotate({ description: "It outgrew PARLEY_STREAM_MAX_BYTES: only its start is kept" }),
  startedAt: Timestamp,
  endedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "KeptRun" })

// Usage and requests (docs/DESIGN.md §6, §7). The ledger's own types live below api/, so the wire is stated here.

const Instant = Schema.DateFromString.check(
  Schema.makeFilter((date: Date) => !Number.isNaN(date.getTime()) || "an ISO-8601 instant such as 2030-01-31T00:00:00Z")
)

/** How usage is summed; the same four as the ledger's `Grouping`. */
export const UsageGrouping = Schema.Literals(["hour", "day", "model", "key"])

/** The query of GET /usage, decoded from its text; `from` after `to` is refused. */
export const UsageQuery = Schema.Struct({
  keyId: Schema.optional(Schema.String),
  accountId: Schema.optional(Schema.String),
  model: Schema.optional(Schema.String),
  from: Schema.optional(Instant),
  to: Schema.optional(Instant),
  groupBy: Schema.optional(UsageGrouping)
}).check(
  Schema.makeFilter((query) =>
    query.from === undefined || query.to === undefined || query.from.getTime() <= query.to.getTime() ||
    "\"from\" must not be after \"to\""
  )
)

/** The most request rows one page holds (docs/DESIGN.md §7). */
export const MAX_REQUESTS_LIMIT = 500

/** The query of GET /requests, decoded from its text. */
export const RequestsQuery = Schema.Struct({
  keyId: Schema.optional(Schema.String),
  limit: Schema.optional(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_REQUESTS_LIMIT }))
  ),
  before: Schema.optional(Instant)
})

const Usd = Schema.NullOr(Schema.Finite)
const Tokens = Schema.NullOr(Count).annotate({ description: "null: no model call reported the count" })

export const UsageRowView = Schema.Struct({
  bucket: Timestamp.annotate({
    description: "The start of the UTC hour or day; grouped by model or key, the start of the window"
  }),
  keyId: Schema.optionalKey(Schema.String),
  model: Schema.optionalKey(Schema.String),
  requests: Count,
  errors: Count.annotate({ description: "Requests whose outcome is error or rejected" }),
  inputTokens: Count,
  outputTokens: Count,
  totalTokens: Count,
  reasoningTokens: Count,
  cachedInputTokens: Count,
  toolCalls: Count,
  costUsd: Usd.annotate({ description: "null when no request of the group has a cost" })
}).annotate({ identifier: "UsageRow" })

/** One ledger row (docs/DESIGN.md §7): facts about a request, never its content or a secret. */
export const RequestView = Schema.Struct({
  time: Timestamp,
  accountId: Schema.String,
  keyId: Schema.String,
  correlationId: Schema.String,
  protocol: Schema.Literals(protocols).annotate({
    description: "How the request came in: `ui` (POST /api/v1/chat), `mcp` (a tools/call on /mcp)…"
  }),
  model: Schema.NullOr(Schema.String),
  target: Schema.NullOr(Schema.String).annotate({
    description: "The provider model that served the answer: a route's target, else the model itself"
  }),
  status: Schema.Int.annotate({ description: "The HTTP status answered; 499 when the client left first" }),
  outcome: Schema.Literals(outcomes),
  finishReason: Schema.NullOr(Schema.String),
  refusedLimit: Schema.NullOr(Schema.String).annotate({
    description: "The limit that refused the request (status 429, outcome `rejected`), e.g. `tokensPerDay`"
  }),
  inputTokens: Tokens,
  outputTokens: Tokens,
  totalTokens: Tokens,
  reasoningTokens: Tokens,
  cachedInputTokens: Tokens,
  toolCalls: Schema.Record(Schema.String, Count).annotate({ description: "Calls by tool name" }),
  steps: Count,
  durationMs: Count,
  firstByteMs: Schema.NullOr(Count),
  pruned: Schema.Boolean,
  costUsd: Usd
}).annotate({ identifier: "LedgerRequest" })
