import { Effect, Result, Schema, type SchemaIssue } from "effect"
import type { InternalChatRequest } from "../chat/chatRequest.ts"
import { ChatRequest, ContextStrategy } from "../domain/ChatRequest.ts"
import { pruneDefaults, PruneOptions } from "../domain/PruneOptions.ts"
import { InvalidRequest } from "../domain/requestErrors.ts"
import { describeIssues } from "../domain/requestIssues.ts"
import { unknownFieldIssues } from "../domain/unknownFields.ts"
import { ApprovalRequired } from "../governance/approvalRequired.ts"

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
 * What every standard door's internal request holds alike: the model, the
 * conversation and its system prompt, `stream`, and the spec's fields it
 * takes as extra top-level body fields (../../shared/design/round3.md part
 * A), the spec's defaults filled in.
 */
export const commonFields = (
  request: Extra & { readonly model: string; readonly stream?: boolean | null | undefined },
  conversation: Pick<InternalChatRequest, "messages" | "origins"> & { readonly system: string | undefined }
) =>
  ({
    model: request.model,
    messages: conversation.messages,
    origins: conversation.origins,
    stream: request.stream === true,
    ...(conversation.system === undefined ? {} : { systemPrompt: conversation.system }),
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

/** A door that cannot carry approval requests refuses such a call as `/mcp` does, as a tool error naming the rule. */
export const approvalRefusal = (path: string) => (toolName: string) =>
  new ApprovalRequired({ tool: toolName, door: path }).message

// Only what was asked: an absent setting leaves the provider's default. A copy, as `delete` would slow the object.
export const defined = <T extends Record<string, unknown>>(value: T): T => {
  const kept: Record<string, unknown> = {}
  for (const key in value) if (value[key] !== undefined && value[key] !== null) kept[key] = value[key]
  return kept as T
}

const none = new Set<string>()

/** What a standard door's body may hold, beside its schema. */
export interface BodyFields {
  readonly known: ReadonlySet<string>
  /** Documented fields the door cannot honour (or only at some values): `issues` words them. */
  readonly refused: ReadonlySet<string>
  readonly refusedIssues: (body: unknown) => ReadonlyArray<string>
  /** The fields of a message of `messages`; absent for a door without `messages` (its mapping checks its items). */
  readonly message?: ReadonlySet<string> | undefined
}

/**
 * A standard door's body decoded, or one 400 with every issue: unknown
 * fields at the top, documented ones the door cannot honour, the schema's
 * own, then the unknown fields of the messages (which decoding dropped).
 */
export const decodeDoorBody = <A>(
  body: unknown,
  decode: (body: unknown) => Result.Result<A, { readonly issue: SchemaIssue.Issue }>,
  fields: BodyFields
): Effect.Effect<A, InvalidRequest> => {
  const unknown = unknownFieldIssues(body, fields.known, fields.refused, "")
  const refused = fields.refusedIssues(body)
  const result = decode(body)
  if (Result.isFailure(result) || unknown.length > 0 || refused.length > 0) {
    const issues = [...unknown, ...refused, ...(Result.isFailure(result) ? describeIssues(result.failure.issue) : [])]
    return Effect.fail(new InvalidRequest({ issues }))
  }
  const known = fields.message
  const messageIssues = known === undefined ? [] : (body as { readonly messages: ReadonlyArray<unknown> }).messages
    .flatMap((message, index) => unknownFieldIssues(message, known, none, `messages[${index}]`))
  return messageIssues.length > 0
    ? Effect.fail(new InvalidRequest({ issues: messageIssues }))
    : Effect.succeed(result.success)
}
