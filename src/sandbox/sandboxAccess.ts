import { Effect, Schema } from "effect"
import { DEFAULT_ACCOUNT_ID } from "../domain/Account.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import { outOfReach, type SandboxElsewhere, type SandboxInfo, type SandboxNotFound } from "./Sandbox.ts"
import type { SandboxProvider } from "./SandboxProvider.ts"

/** A sandbox that exists but belongs to another key. */
export class SandboxForbidden extends Schema.TaggedError<SandboxForbidden>()("SandboxForbidden", {
  sandboxId: Schema.String
}) {
  override get message() {
    return `Sandbox not available with your API key: ${this.sandboxId}`
  }
}

/** A sandboxId, given for a sandbox tool (a chat request's or an /mcp call's), that names no sandbox. */
export class UnknownSandbox extends Schema.TaggedError<UnknownSandbox>()("UnknownSandbox", {
  sandboxId: Schema.String
}) {
  override get message() {
    return `Unknown sandbox "${this.sandboxId}": no sandbox has this id, or it went unused long enough to be removed (PARLEY_SANDBOX_IDLE). Create one with POST /api/v1/sandboxes (or \`parley sandbox create\`); GET /api/v1/sandboxes lists yours.`
  }
}

/** The operator's sandboxes (no owner) serve every key, so no key may remove one. */
export class SandboxOwnedByOperator extends Schema.TaggedError<SandboxOwnedByOperator>()("SandboxOwnedByOperator", {
  sandboxId: Schema.String
}) {
  override get message() {
    return `Sandbox ${this.sandboxId} belongs to the operator; it is removed with \`parley sandbox rm ${this.sandboxId}\``
  }
}

/** A key may use its own sandboxes and the operator's (no owner). */
export const canUse = (sandbox: SandboxInfo, key: ApiKey): boolean =>
  sandbox.ownerKeyId === null || sandbox.ownerKeyId === key.id

/**
 * The account a sandbox belongs to: the one recorded, else `default` for a
 * key's sandbox made before accounts existed (all such keys were
 * `default`'s); null for the operator's own.
 */
export const sandboxAccount = (sandbox: SandboxInfo): string | null =>
  sandbox.ownerAccountId ?? (sandbox.ownerKeyId === null ? null : DEFAULT_ACCOUNT_ID)

/**
 * The sandbox `id` if `key` may use it on this gateway. Ownership is checked
 * first, so a key learns where only its own sandboxes live.
 */
export const usableSandbox = (
  sandboxes: SandboxProvider["Service"],
  id: string,
  key: ApiKey
): Effect.Effect<SandboxInfo, SandboxNotFound | SandboxForbidden | SandboxElsewhere> =>
  sandboxes.get(id).pipe(
    Effect.filterOrFail(
      (sandbox) => canUse(sandbox, key),
      () => new SandboxForbidden({ sandboxId: id })
    ),
    Effect.flatMap((sandbox) => {
      const elsewhere = outOfReach(sandbox, sandboxes.name, sandboxes.instance)
      return elsewhere === undefined ? Effect.succeed(sandbox) : Effect.fail(elsewhere)
    })
  )
