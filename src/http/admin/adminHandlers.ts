import { Clock, Effect, Option } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal, type Principal, SESSION_COOKIE } from "../../api/AdminAuthentication.ts"
import { DEFAULT_GRACE_SECONDS, RotateKey, SignIn, UpdateKey } from "../../api/adminSchemas.ts"
import { Api } from "../../api/Api.ts"
import { Accounts } from "../../auth/Accounts.ts"
import { ApiKeys } from "../../auth/ApiKeys.ts"
import { Sessions } from "../../auth/Sessions.ts"
import type { KeyStatus } from "../../domain/ApiKey.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import { accountView, keyView } from "../../domain/views.ts"
import { Budgets } from "../../governance/Budgets.ts"
import { Limiter } from "../../governance/Limiter.ts"
import { UsageQueries } from "../../ledger/UsageQueries.ts"
import { McpRegistry } from "../../mcp/McpRegistry.ts"
import { McpServers } from "../../mcp/McpServers.ts"
import { ModelRegistry } from "../../models/ModelRegistry.ts"
import { ProviderCooldowns } from "../../models/ProviderCooldowns.ts"
import { SandboxProvider } from "../../sandbox/SandboxProvider.ts"
import { ToolRegistry } from "../../tools/ToolRegistry.ts"
import { errorResponse } from "../errorResponse.ts"
import type { ApiFailure } from "../errorTable.ts"
import { KeptReplays } from "../KeptReplays.ts"
import { KeptRuns } from "../KeptRuns.ts"
import { accountScope, visibleKey } from "./access.ts"
import { makeAccountAdmin } from "./accountAdmin.ts"
import { readAdminBody } from "./adminBody.ts"
import { makeAdminCatalog } from "./adminCatalog.ts"
import { ok } from "./adminViews.ts"
import { makeCatalogCheck, withinAccount } from "./allowListCheck.ts"
import { makeKeyCreation } from "./keyCreation.ts"
import { makeLimitsAdmin } from "./limitsAdmin.ts"
import { makeMcpServerAdmin } from "./mcpServerAdmin.ts"
import { makeProviderAdmin } from "./providerAdmin.ts"
import { makeRunsAdmin } from "./runsAdmin.ts"
import { makeSandboxAdmin } from "./sandboxAdmin.ts"
import { clearedCookie, sessionCookie } from "./sessionCookie.ts"
import { makeUsageAdmin } from "./usageAdmin.ts"

/** Renders a handler's failures in the spec's error body. */
const answer = <E extends ApiFailure, R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.catch(effect, errorResponse)

const withPrincipal = <E extends ApiFailure, R>(
  use: (principal: Principal) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) => answer(Effect.flatMap(Effect.service(CurrentPrincipal), use))

/** Expiry must lie ahead: a key born expired is a mistake. */
const futureExpiry = (expiresAt: Date | null | undefined, now: number) =>
  expiresAt != null && expiresAt.getTime() <= now
    ? Effect.fail(new InvalidRequest({ issues: ["\"expiresAt\" must be in the future"] }))
    : Effect.void

/** /admin/v1 (docs/DESIGN.md §6). Authentication and CSRF were checked before routing (adminAuthentication.ts). */
export const AdminHandlers = HttpApiBuilder.group(
  Api,
  "admin",
  Effect.fn(function*(handlers) {
    const keys = yield* ApiKeys
    const accounts = yield* Accounts
    const sessions = yield* Sessions
    const mcp = yield* McpRegistry
    const checkCatalog = makeCatalogCheck(yield* ModelRegistry, yield* ToolRegistry, mcp)
    const accountAdmin = makeAccountAdmin(accounts, checkCatalog)
    const createKey = makeKeyCreation(keys, accounts, checkCatalog)
    const catalog = makeAdminCatalog(yield* ModelRegistry, yield* ToolRegistry, mcp, accounts)
    const usageAdmin = makeUsageAdmin(yield* UsageQueries, keys)
    const mcpAdmin = makeMcpServerAdmin(yield* McpServers)
    const providerAdmin = makeProviderAdmin(yield* ModelRegistry, yield* ProviderCooldowns)
    const limitsAdmin = makeLimitsAdmin(keys, accounts, yield* Limiter, yield* Budgets)
    const sandboxAdmin = makeSandboxAdmin(yield* SandboxProvider)
    const runsAdmin = makeRunsAdmin(keys, yield* KeptRuns, yield* KeptReplays)

    const signIn = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const input = yield* readAdminBody(request, SignIn)
        const address = Option.getOrElse(request.remoteAddress, () => "unknown")
        const session = yield* sessions.signIn({ ...input, address })
        const response = ok({ csrfToken: session.csrfToken, account: accountView(session.account) })
        return HttpServerResponse.setHeader(response, "set-cookie", sessionCookie(request, session.token))
      })

    const signOut = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const token = request.cookies[SESSION_COOKIE]
        if (token !== undefined && token !== "") yield* sessions.signOut(token)
        return HttpServerResponse.setHeader(ok({ signedOut: true }), "set-cookie", clearedCookie(request))
      })

    const updateKey = (principal: Principal, id: string, request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const key = yield* visibleKey(keys, principal, id)
        const changes = yield* readAdminBody(request, UpdateKey)
        yield* checkCatalog(changes)
        yield* withinAccount(changes, yield* accounts.get(key.accountId))
        yield* futureExpiry(changes.expiresAt, yield* Clock.currentTimeMillis)
        const updated = yield* keys.update(id, {
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(changes.allowedModels === undefined ? {} : { allowedModels: changes.allowedModels }),
          ...(changes.allowedTools === undefined ? {} : { allowedTools: changes.allowedTools }),
          ...(changes.approvalRequired === undefined ? {} : { approvalRequired: changes.approvalRequired }),
          ...(changes.limits === undefined ? {} : { limits: changes.limits }),
          ...(changes.expiresAt === undefined ? {} : { expiresAt: changes.expiresAt })
        })
        return ok({ key: keyView(updated) })
      })

    const setStatus = (status: KeyStatus) => ({ params }: { readonly params: { readonly id: string } }) =>
      withPrincipal((principal) =>
        Effect.gen(function*() {
          yield* visibleKey(keys, principal, params.id)
          return ok({ key: keyView(yield* keys.setStatus(params.id, status)) })
        })
      )

    const rotate = (principal: Principal, id: string, request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        yield* visibleKey(keys, principal, id)
        const input = yield* readAdminBody(request, RotateKey)
        const { key, secret } = yield* keys.rotate(id, input.graceSeconds ?? DEFAULT_GRACE_SECONDS)
        return ok({ key: keyView(key), secret })
      })

    return handlers
      .handleRaw("signIn", ({ request }) => answer(signIn(request)))
      .handleRaw("signOut", ({ request }) => answer(signOut(request)))
      .handleRaw("listAccounts", () => withPrincipal(accountAdmin.list))
      .handleRaw("createAccount", ({ request }) => withPrincipal((p) => accountAdmin.create(p, request)))
      .handleRaw("getAccount", ({ params }) => withPrincipal((p) => accountAdmin.get(p, params.id)))
      .handleRaw(
        "updateAccount",
        ({ params, request }) => withPrincipal((p) => accountAdmin.update(p, params.id, request))
      )
      .handleRaw("accountLimits", ({ params }) => withPrincipal((p) => limitsAdmin.account(p, params.id)))
      .handleRaw(
        "listKeys",
        ({ query }) =>
          withPrincipal((principal) =>
            Effect.map(keys.list(accountScope(principal, query.accountId)), (list) => ok({ keys: list.map(keyView) }))
          )
      )
      .handleRaw("createKey", ({ request }) => withPrincipal((p) => createKey(p, request)))
      .handleRaw(
        "getKey",
        ({ params }) =>
          withPrincipal((principal) =>
            Effect.map(visibleKey(keys, principal, params.id), (key) => ok({ key: keyView(key) }))
          )
      )
      .handleRaw("updateKey", ({ params, request }) => withPrincipal((p) => updateKey(p, params.id, request)))
      .handleRaw("keyLimits", ({ params }) => withPrincipal((p) => limitsAdmin.key(p, params.id)))
      .handleRaw("keyRuns", ({ params, query }) => withPrincipal((p) => runsAdmin.list(p, params.id, query.limit)))
      .handleRaw("stopKeyRun", ({ params }) => withPrincipal((p) => runsAdmin.stop(p, params.id, params.chatId)))
      .handleRaw(
        "keyRunStream",
        ({ params }) => withPrincipal((p) => runsAdmin.stream(p, params.id, params.chatId))
      )
      .handleRaw("activateKey", setStatus("active"))
      .handleRaw("deactivateKey", setStatus("inactive"))
      .handleRaw("revokeKey", setStatus("revoked"))
      .handleRaw("rotateKey", ({ params, request }) => withPrincipal((p) => rotate(p, params.id, request)))
      .handleRaw("catalog", () => withPrincipal(catalog))
      .handleRaw("usage", ({ query }) => withPrincipal((p) => usageAdmin.usage(p, query)))
      .handleRaw("listRequests", ({ query }) => withPrincipal((p) => usageAdmin.requests(p, query)))
      .handleRaw("getRequest", ({ params }) => withPrincipal((p) => usageAdmin.request(p, params.correlationId)))
      .handleRaw("listProviders", () => withPrincipal(providerAdmin.list))
      .handleRaw("listMcpServers", () => withPrincipal(mcpAdmin.list))
      .handleRaw("createMcpServer", ({ request }) => withPrincipal((p) => mcpAdmin.create(p, request)))
      .handleRaw("getMcpServer", ({ params }) => withPrincipal((p) => mcpAdmin.get(p, params.id)))
      .handleRaw(
        "updateMcpServer",
        ({ params, request }) => withPrincipal((p) => mcpAdmin.update(p, params.id, request))
      )
      .handleRaw("deleteMcpServer", ({ params }) => withPrincipal((p) => mcpAdmin.remove(p, params.id)))
      .handleRaw("refreshMcpServer", ({ params }) => withPrincipal((p) => mcpAdmin.refresh(p, params.id)))
      .handleRaw("listSandboxes", ({ query }) => withPrincipal((p) => sandboxAdmin.list(p, query.accountId)))
      .handleRaw("deleteSandbox", ({ params }) => withPrincipal((p) => sandboxAdmin.remove(p, params.id)))
  })
)
