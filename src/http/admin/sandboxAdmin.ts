import { Effect } from "effect"
import type { Principal } from "../../api/AdminAuthentication.ts"
import type { SandboxView } from "../../domain/views.ts"
import { SandboxElsewhere, type SandboxInfo, SandboxNotFound } from "../../sandbox/Sandbox.ts"
import { sandboxAccount } from "../../sandbox/sandboxAccess.ts"
import type { SandboxProvider } from "../../sandbox/SandboxProvider.ts"
import { accountScope, mayManage } from "./access.ts"
import { ok } from "./adminViews.ts"

const sandboxView = (
  sandbox: SandboxInfo,
  display: { readonly width: number; readonly height: number }
): SandboxView => ({
  id: sandbox.id,
  accountId: sandboxAccount(sandbox),
  desktop: sandbox.desktop,
  network: sandbox.network,
  createdAt: sandbox.createdAt.toISOString(),
  owner: sandbox.ownerKeyId === null ? "account" as const : "key" as const,
  ...(sandbox.ownerKeyId === null ? {} : { keyId: sandbox.ownerKeyId }),
  ...(sandbox.desktop ? { display } : {}),
  backend: sandbox.backend,
  instance: sandbox.instance,
  usedAt: sandbox.usedAt.toISOString()
})

/**
 * The console reaches whichever instance the balancer picks, without the
 * X-Parley-Sandbox header a client routes by, so the advice names the
 * instance to go to instead.
 */
const onlyThere = (elsewhere: SandboxElsewhere) => {
  const { instance, sandboxId } = elsewhere
  if (instance === null) return elsewhere
  return new SandboxElsewhere({
    ...elsewhere,
    remedy: `only ${instance} can delete it, as its workspace is on that instance's disk. ` +
      `Send the DELETE to ${instance} at its own address (or open the console there), ` +
      `or run \`parley sandbox rm ${sandboxId}\` on its host`
  })
}

// The shared advice names /api/v1, an API key's; an operator or a console session lists them here.
const LISTED_HERE = "GET /admin/v1/sandboxes lists them."

/** /admin/v1/sandboxes (docs/DESIGN.md §6): every instance's records; each instance removes its own. */
export const makeSandboxAdmin = (sandboxes: SandboxProvider["Service"]) => ({
  list: (principal: Principal, accountId: string | undefined) =>
    Effect.map(sandboxes.list, (all) => {
      const scope = accountScope(principal, accountId)
      const visible = scope === undefined ? all : all.filter((sandbox) => sandboxAccount(sandbox) === scope)
      return ok({ sandboxes: visible.map((sandbox) => sandboxView(sandbox, sandboxes.display)) })
    }),

  remove: (principal: Principal, id: string) =>
    Effect.gen(function*() {
      const sandbox = yield* sandboxes.get(id)
      // Another account's sandbox is "not found", so nothing leaks.
      if (!mayManage(principal, sandboxAccount(sandbox))) return yield* new SandboxNotFound({ id })
      yield* sandboxes.destroy(id).pipe(
        // Removed meanwhile by someone else: the outcome the caller asked for.
        Effect.catchTag("SandboxNotFound", () => Effect.void),
        Effect.mapError(onlyThere)
      )
      return ok({ id, deleted: true })
    }).pipe(
      Effect.catchTag("SandboxNotFound", () => Effect.fail(new SandboxNotFound({ id, remedy: LISTED_HERE })))
    )
})
