import { Effect, Result, Schema } from "effect"
import { ChatContext, SandboxIdSchema, ToolContextSchema } from "./ChatContext.ts"
import { hasOnly, isRecord } from "./isRecord.ts"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./jsonDepth.ts"
import { Message } from "./Message.ts"
import { pruneDefaults, PruneOptions } from "./PruneOptions.ts"
import { InvalidRequest, MalformedJson } from "./requestErrors.ts"
import { describeIssues } from "./requestIssues.ts"
import { unknownFieldIssues } from "./unknownFields.ts"
import { Name, wellFormed } from "./wellFormed.ts"

/**
 * `<provider>/<model>`: the provider is the text before the first `/`, the
 * model the rest, which may hold further `/` (`openrouter/meta/llama-3`).
 * Segments are non-empty and contain no whitespace.
 */
const modelFormat = /^[^\s/]+(?:\/[^\s/]+)+$/

/** A model id as `ModelId` takes it, for a decoder's fast path. */
export const isModelId = (model: unknown): model is string =>
  typeof model === "string" && modelFormat.test(model) && model.isWellFormed()

export const ModelId = Schema.String.annotate({ message: "must be a string" })
  .check(
    Schema.makeFilter(
      (model: string) =>
        modelFormat.test(model) || `Invalid model format ${JSON.stringify(model)}: expected <provider>/<model>`,
      { expected: "<provider>/<model>", toJsonSchema: () => ({ pattern: modelFormat.source }) }
    ),
    wellFormed
  )
  .annotate({ description: "Model id, format `<provider>/<model>`.", examples: ["openai/gpt-4o"] })

const withDefault = <S extends Schema.Top & { readonly Encoded: unknown }>(value: S["Encoded"]) => (schema: S) =>
  schema.pipe(Schema.withDecodingDefaultKey(Effect.succeed(value)))

const flag = (defaultValue: boolean, description: string) =>
  Schema.Boolean.annotate({ message: "must be a boolean", description, default: defaultValue }).pipe(
    withDefault(defaultValue)
  )

export const ContextStrategy = Schema.Literals(["error", "skip", "report"])

/** What a client leaving does to its run (docs/DESIGN.md §16). */
export const OnDisconnect = Schema.Literals(["cancel", "continue"])
export type ContextStrategy = typeof ContextStrategy.Type

/** The body of POST /chat (spec: ChatRequest). */
export const ChatRequest = Schema.Struct({
  model: ModelId,
  messages: Schema.Array(Message)
    .annotate({
      message: "must be an array",
      description: "The conversation, in simplified `{role, content}` or full UIMessage form."
    }),
  stream: flag(true, "true: text/event-stream; false: one JSON body."),
  prune: flag(false, "Delete old history messages to control the token count, per `pruneOptions`."),
  pruneOptions: PruneOptions.pipe(withDefault({})),
  systemPrompt: Schema.optionalKey(
    Schema.String.annotate({ description: "Direct system prompt; wins over promptType." })
  ),
  promptType: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "One of bossJobsiteSystemPrompt, bossJobsiteLocalSystemPrompt, generalComputerSystemPrompt: selects a built-in tool set and the system prompt in context.systemPrompts."
    })
  ),
  allowedTools: Schema.optionalKey(Schema.Array(Name).annotate({ description: "Tool names allowed." })),
  contextStrategy: ContextStrategy.annotate({
    description:
      "error: missing tool context gives 400; skip: such tools are skipped; report: return a ValidationReport.",
    default: "error"
  }).pipe(withDefault("error")),
  sandboxId: Schema.optionalKey(SandboxIdSchema),
  context: Schema.optionalKey(ChatContext),
  toolContext: Schema.optionalKey(ToolContextSchema),
  validateOnly: flag(false, "true: validate only and return a ValidationReport."),
  id: Schema.optionalKey(
    Schema.String.annotate({
      message: "must be a string",
      description: "The chat's id (AI SDK chat transports send it): names a resumable run (`onDisconnect`)."
    })
  ),
  onDisconnect: Schema.optionalKey(
    OnDisconnect.annotate({
      description: "cancel (default): a client that leaves cancels the run. continue: the run goes on and its " +
        "stream is kept, for GET /api/v1/chat/{id}/stream to resume and POST /api/v1/chat/{id}/stop to stop " +
        "(needs `id` and a streamed answer; docs/durable-runs.md)."
    })
  )
}).annotate({ message: "body must be a JSON object", identifier: "ChatRequest" })
export type ChatRequest = typeof ChatRequest.Type

const decode = Schema.decodeUnknownResult(ChatRequest, { errors: "all" })

const requestFields = new Set(Object.keys(ChatRequest.fields))
const pruneOptionFields = new Set(Object.keys(PruneOptions.fields))
/** What AI SDK chat transports (`useChat`'s DefaultChatTransport) add to every body: accepted and ignored (`id` is the schema's). */
const transportFields = new Set(["trigger", "messageId", "metadata"])
const none = new Set<string>()

/** Fields the schema does not know, at the top and in pruneOptions (docs/DESIGN.md §3.16). */
const unknownFields = (body: unknown): ReadonlyArray<string> => {
  const top = unknownFieldIssues(body, requestFields, transportFields, "")
  const prune = isRecord(body) ? unknownFieldIssues(body.pruneOptions, pruneOptionFields, none, "pruneOptions") : []
  return prune.length === 0 ? top : [...top, ...prune]
}

const plainFields = new Set(["model", "messages", "stream", "prune", "systemPrompt", "validateOnly"])
const plainMessageFields = new Set(["id", "role", "content"])
const roles = new Set(["user", "assistant", "system"])

const isOptional = (value: unknown, type: "string" | "boolean") => value === undefined || typeof value === type

// A message of the plain form `{id?, role, content}`, as the schema decodes it (its fields in schema order).
const plainMessage = (value: unknown): Message | undefined => {
  if (!hasOnly(value, plainMessageFields)) return undefined
  const { content, id, role } = value
  if (typeof content !== "string" || typeof role !== "string" || !roles.has(role) || !isOptional(id, "string")) {
    return undefined
  }
  return id === undefined
    ? { role: role as Message["role"], content }
    : { id: id as string, role: role as Message["role"], content }
}

/**
 * The decoder's result for the common body, found without the schema
 * interpreter (~10 µs a request on the hot path, BENCHMARKS.md): a model id,
 * plain `{role, content}` messages and at most stream, prune, systemPrompt
 * and validateOnly, each of its type. Anything else is undefined and goes
 * to the schema; test/domain/ChatRequest.test.ts checks that both agree.
 */
export const decodePlainChatRequest = (body: unknown): ChatRequest | undefined => {
  if (!hasOnly(body, plainFields)) return undefined
  const { messages, model, prune, stream, systemPrompt, validateOnly } = body
  if (!isModelId(model) || !Array.isArray(messages)) return undefined
  if (!isOptional(stream, "boolean") || !isOptional(prune, "boolean") || !isOptional(validateOnly, "boolean")) {
    return undefined
  }
  if (!isOptional(systemPrompt, "string")) return undefined
  const decoded: Array<Message> = []
  for (const value of messages) {
    const message = plainMessage(value)
    if (message === undefined) return undefined
    decoded.push(message)
  }
  return {
    model,
    messages: decoded,
    stream: (stream as boolean | undefined) ?? true,
    prune: (prune as boolean | undefined) ?? false,
    pruneOptions: {
      targetTokens: pruneDefaults.targetTokens,
      preserveRecentMessages: pruneDefaults.preserveRecentMessages
    },
    ...(systemPrompt === undefined ? {} : { systemPrompt: systemPrompt as string }),
    contextStrategy: "error",
    validateOnly: (validateOnly as boolean | undefined) ?? false
  }
}

/**
 * Decodes a parsed request body. Fails with every problem (rules 1 and 2 of
 * POST /chat), each named with its path; unknown fields come first, since a
 * misspelled field often explains a missing one (`mesages`).
 */
export const decodeChatRequest = (body: unknown): Effect.Effect<ChatRequest, InvalidRequest> => {
  const plain = decodePlainChatRequest(body)
  if (plain !== undefined) return Effect.succeed(plain)
  const unknown = unknownFields(body)
  const result = decode(body)
  if (Result.isSuccess(result) && unknown.length === 0) return Effect.succeed(result.success)
  const issues = Result.isFailure(result) ? describeIssues(result.failure.issue) : []
  return Effect.fail(new InvalidRequest({ issues: unknown.length === 0 ? issues : [...unknown, ...issues] }))
}

/**
 * Parses a request body as JSON; malformed JSON is the client's mistake, never
 * a defect. Nesting deeper than MAX_JSON_DEPTH is refused before parsing.
 */
export const parseJsonBody = (text: string): Effect.Effect<unknown, MalformedJson> =>
  nestsDeeperThan(text, MAX_JSON_DEPTH)
    ? Effect.fail(new MalformedJson({ reason: `nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` }))
    : Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) => new MalformedJson({ reason: error instanceof Error ? error.message : String(error) })
    })
