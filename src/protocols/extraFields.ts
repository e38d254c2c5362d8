import { Schema } from "effect"
import type { InternalChatRequest } from "../chat/chatRequest.ts"
import { ChatRequest, ContextStrategy } from "../domain/ChatRequest.ts"
import { pruneDefaults, PruneOptions } from "../domain/PruneOptions.ts"
import { unknownFieldIssues } from "../domain/unknownFields.ts"

const spec = ChatRequest.fields

/** The spec's server-tool fields, as a standard door's body schema takes them (../../shared/design/round3.md part A). */
export const extraFieldSchemas = {
  allowedTools: spec.allowedTools,
  promptType: spec.promptType,
  sandboxId: spec.sandboxId,
  context: spec.context,
  toolContext: spec.toolContext,
  contextStrategy: Schema.optionalKey(ContextStrategy),
  prune: Schema.optionalKey(Schema.Boolean),
  pruneOptions: Schema.optionalKey(PruneOptions)
}

type Extra =
  & Partial<
    Pick<
      ChatRequest,
      "allowedTools" | "promptType" | "sandboxId" | "context" | "toolContext" | "contextStrategy" | "prune"
    >
  >
  & { readonly pruneOptions?: Partial<ChatRequest["pruneOptions"]> | undefined }

/**
 * The spec's fields a standard door takes as extra top-level body fields
 * (../../shared/design/round3.md part A), as the internal request has them,
 * the spec's defaults filled in.
 */
export const extraFields = (request: Extra) =>
  ({
    prune: request.prune ?? false,
    pruneOptions: {
      targetTokens: pruneDefaults.targetTokens,
      preserveRecentMessages: pruneDefaults.preserveRecentMessages,
      ...request.pruneOptions
    },
    contextStrategy: request.contextStrategy ?? "error",
    validateOnly: false,
    ...(request.promptType === undefined ? {} : { promptType: request.promptType }),
    ...(request.allowedTools === undefined ? {} : { allowedTools: request.allowedTools }),
    ...(request.sandboxId === undefined ? {} : { sandboxId: request.sandboxId }),
    ...(request.context === undefined ? {} : { context: request.context }),
    ...(request.toolContext === undefined ? {} : { toolContext: request.toolContext })
  }) satisfies Partial<InternalChatRequest>

/** A door that cannot carry approval requests refuses such a call as a tool error naming the rule (as `/mcp`). */
export const approvalRefusal = (path: string) => (toolName: string) =>
  `Error: tool ${toolName} needs a person's approval (the key's approvalRequired list), which ` +
  `${path} cannot ask for: call it through POST /api/v1/chat, where approvals are supported`

// Only what was asked: an absent setting leaves the provider's default.
export const defined = <T extends Record<string, unknown>>(value: T): T => {
  for (const key in value) if (value[key] === undefined || value[key] === null) delete value[key]
  return value
}

const none = new Set<string>()

/** The unknown fields of a decoded body's own messages, which decoding dropped. */
export const unknownMessageFields = (body: unknown, fields: ReadonlySet<string>): ReadonlyArray<string> =>
  (body as { readonly messages: ReadonlyArray<unknown> }).messages.flatMap((message, index) =>
    unknownFieldIssues(message, fields, none, `messages[${index}]`)
  )
