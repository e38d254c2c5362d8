import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { Principal } from "../../api/AdminAuthentication.ts"
import { CreateAccount, UpdateAccount } from "../../api/adminSchemas.ts"
import type { Accounts } from "../../auth/Accounts.ts"
import { accountView } from "../../domain/views.ts"
import { requireOperator } from "./access.ts"
import { readAdminBody } from "./adminBody.ts"
import { ok } from "./adminViews.ts"
import type { makeCatalogCheck } from "./allowListCheck.ts"

/** /admin/v1/accounts: the operator's alone (docs/DESIGN.md §6). */
export const makeAccountAdmin = (
  accounts: Accounts["Service"],
  checkCatalog: ReturnType<typeof makeCatalogCheck>
) => ({
  list: (principal: Principal) =>
    Effect.gen(function*() {
      yield* requireOperator(principal)
      return ok({ accounts: (yield* accounts.list).map(accountView) })
    }),

  create: (principal: Principal, request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      yield* requireOperator(principal)
      const input = yield* readAdminBody(request, CreateAccount)
      yield* checkCatalog(input)
      return ok({ account: accountView(yield* accounts.create(input)) }, 201)
    }),

  get: (principal: Principal, id: string) =>
    Effect.gen(function*() {
      yield* requireOperator(principal)
      return ok({ account: accountView(yield* accounts.get(id)) })
    }),

  update: (principal: Principal, id: string, request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      yield* requireOperator(principal)
      const changes = yield* readAdminBody(request, UpdateAccount)
      yield* checkCatalog(changes)
      return ok({ account: accountView(yield* accounts.update(id, changes)) })
    })
})
