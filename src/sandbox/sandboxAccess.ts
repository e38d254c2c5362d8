import { Effect, Option } from "effect"
import type { ApiKey } from "../domain/ApiKey.ts"
import { BadRequest, Forbidden } from "../domain/errors.ts"
import type { Tool } from "../tools/Tool.ts"
import type { SandboxInfo } from "./Sandbox.ts"
import { SandboxProvider } from "./SandboxProvider.ts"

/** A key may use its own sandboxes and the operator's (no owner). */
export const canUse = (sandbox: SandboxInfo, key: ApiKey): boolean =>
  sandbox.ownerKeyId === null || sandbox.ownerKeyId === key.id

export const unknownSandbox = (id: string): BadRequest => {
  const message =
    `Unknown sandbox "${id}". Create one with POST /api/v1/sandboxes (or \`parley sandbox create\`); GET /api/v1/sandboxes lists yours.`
  return new BadRequest({ message, details: { error: message, sandboxId: id } })
}

export const foreignSandbox = (id: string): Forbidden =>
  new Forbidden({ message: `Sandbox not available with your API key: ${id}`, details: { sandboxId: id } })

/** The sandbox `id` if `key` may use it; 400 naming an unknown id, 403 for another key's. */
export const usableSandbox = (
  sandboxes: SandboxProvider["Service"],
  id: string,
  key: ApiKey
): Effect.Effect<SandboxInfo, BadRequest | Forbidden> =>
  sandboxes.get(id).pipe(
    Effect.catchTag("SandboxNotFound", () => Effect.fail(unknownSandbox(id))),
    Effect.flatMap((sandbox) => canUse(sandbox, key) ? Effect.succeed(sandbox) : Effect.fail(foreignSandbox(id)))
  )

/**
 * Before a run: when a selected tool needs a sandbox and the request names
 * one, the key must be allowed to use it. A gateway without a sandbox
 * provider has no sandbox tools to protect.
 */
export const checkSandboxAccess = (
  tools: ReadonlyArray<Tool>,
  sandboxId: string | null | undefined,
  key: ApiKey
): Effect.Effect<void, BadRequest | Forbidden> =>
  Effect.gen(function*() {
    if (sandboxId === undefined || sandboxId === null || sandboxId === "") return
    if (!tools.some((tool) => tool.requiresSandbox)) return
    const sandboxes = yield* Effect.serviceOption(SandboxProvider)
    if (Option.isSome(sandboxes)) yield* usableSandbox(sandboxes.value, sandboxId, key)
  })
