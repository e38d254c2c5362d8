import { Effect, Option } from "effect"
import type { Principal } from "../../api/AdminAuthentication.ts"
import { RequestsQuery, UsageQuery } from "../../api/adminSchemas.ts"
import { AccountNotFound } from "../../auth/accountErrors.ts"
import type { ApiKeys } from "../../auth/ApiKeys.ts"
import type { UsageEvent } from "../../domain/UsageEvent.ts"
import type { RequestView } from "../../domain/views.ts"
import { RequestNotFound } from "../../ledger/ledgerErrors.ts"
import type { UsageQueries } from "../../ledger/UsageQueries.ts"
import { visibleKey } from "./access.ts"
import { decodeAdminQuery } from "./adminBody.ts"
import { ok } from "./adminViews.ts"

type Query = Readonly<Record<string, string | undefined>>

const requestView = (event: UsageEvent): RequestView => ({ ...event, time: event.time.toISOString() })

/**
 * The account a usage or requests query covers: a session's own (naming
 * another is "not found", as on POST /keys, so nothing leaks); the
 * operator's choice (undefined: all).
 */
const scopeOf = (principal: Principal, requested: string | undefined) =>
  principal._tag === "Operator" || requested === undefined || requested === principal.accountId
    ? Effect.succeed(principal._tag === "Operator" ? requested : principal.accountId)
    : Effect.fail(new AccountNotFound({ id: requested }))

/**
 * /admin/v1/usage and /admin/v1/requests (docs/DESIGN.md §6, §7): the query
 * checked, the caller's view enforced (another account's key or request
 * answers 404), the ledger read.
 */
// A database failure is unexpected here: a 500, as the keys' store failures are (auth/ApiKeys.ts).
export const makeUsageAdmin = (queries: UsageQueries["Service"], keys: ApiKeys["Service"]) => {
  /** A named key must be one the principal may see. */
  const keyFilter = (principal: Principal, keyId: string | undefined) =>
    keyId === undefined ? Effect.void : Effect.asVoid(visibleKey(keys, principal, keyId))

  return {
    usage: (principal: Principal, raw: Query) =>
      Effect.gen(function*() {
        const query = yield* decodeAdminQuery(UsageQuery, raw)
        const accountId = yield* scopeOf(principal, query.accountId)
        yield* keyFilter(principal, query.keyId)
        const rows = yield* Effect.orDie(queries.usage({ ...query, accountId, groupBy: query.groupBy ?? "day" }))
        return ok({ rows })
      }),

    requests: (principal: Principal, raw: Query) =>
      Effect.gen(function*() {
        const query = yield* decodeAdminQuery(RequestsQuery, raw)
        yield* keyFilter(principal, query.keyId)
        const accountId = principal._tag === "Account" ? principal.accountId : undefined
        const rows = yield* Effect.orDie(queries.requests({ ...query, accountId }))
        return ok({ requests: rows.map(requestView) })
      }),

    request: (principal: Principal, correlationId: string) =>
      Effect.gen(function*() {
        const accountId = principal._tag === "Account" ? principal.accountId : undefined
        const found = yield* Effect.orDie(queries.request(correlationId, accountId))
        if (Option.isNone(found)) return yield* new RequestNotFound({ correlationId })
        return ok({ request: requestView(found.value) })
      })
  }
}
