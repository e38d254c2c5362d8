import { Arbitrary, Schema } from "effect"
import { plainishBodies as plainishOf } from "../support/plainishBodies.ts"

/**
 * Schemas that generate valid ChatRequest bodies (`Arbitrary.schema`). They
 * describe what clients send, independently of the schemas under test.
 */
const Role = Schema.Literals(["user", "assistant", "system"])

const ModelId = Schema.String.check(Schema.isPattern(/^[a-z0-9-]{1,8}(\/[A-Za-z0-9.:_-]{1,10}){1,2}$/))

export const SimpleMessage = Schema.Struct({ role: Role, content: Schema.String })

const TextPart = Schema.Struct({ type: Schema.Literal("text"), text: Schema.String })
const ToolPart = Schema.Struct({
  type: Schema.Literal("dynamic-tool"),
  toolName: Schema.Literals(["bash", "browser", "jobsite_reply_generator"]),
  toolCallId: Schema.String,
  state: Schema.Literal("output-available"),
  input: Schema.Record(Schema.String, Schema.Json),
  output: Schema.Json
})
const FilePart = Schema.Struct({
  type: Schema.Literal("file"),
  mediaType: Schema.Literals(["image/png", "application/pdf"]),
  url: Schema.Literal("data:image/png;base64,iVBORw0KGgo=")
})
const StepStart = Schema.Struct({ type: Schema.Literal("step-start") })

export const FullMessage = Schema.Struct({
  id: Schema.NonEmptyString,
  role: Role,
  parts: Schema.NonEmptyArray(Schema.Union([TextPart, ToolPart, FilePart, StepStart])),
  metadata: Schema.optionalKey(Schema.Json)
})

const count = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 }))

export const ValidBody = Schema.Struct({
  model: ModelId,
  messages: Schema.Array(Schema.Union([SimpleMessage, FullMessage])),
  stream: Schema.optionalKey(Schema.Boolean),
  prune: Schema.optionalKey(Schema.Boolean),
  pruneOptions: Schema.optionalKey(Schema.Struct({
    maxOutputTokens: Schema.optionalKey(count),
    targetTokens: Schema.optionalKey(count),
    preserveRecentMessages: Schema.optionalKey(count)
  })),
  systemPrompt: Schema.optionalKey(Schema.String),
  promptType: Schema.optionalKey(Schema.String),
  // Names without lone surrogates: a client's Unicode is well formed (docs/DESIGN.md §3.24).
  allowedTools: Schema.optionalKey(Schema.Array(Schema.String.check(Schema.makeFilter((name) => name.isWellFormed())))),
  contextStrategy: Schema.optionalKey(Schema.Literals(["error", "skip", "report"])),
  sandboxId: Schema.optionalKey(Schema.NullOr(Schema.String)),
  context: Schema.optionalKey(Schema.Struct({
    preferredBrand: Schema.optionalKey(Schema.String),
    systemPrompts: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
    partnerToken: Schema.optionalKey(Schema.NullOr(Schema.String)),
    configData: Schema.optionalKey(Schema.Record(Schema.String, Schema.Json))
  })),
  toolContext: Schema.optionalKey(Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Json))),
  validateOnly: Schema.optionalKey(Schema.Boolean)
})
export type ValidBody = typeof ValidBody.Type

/** What JSON.parse would hand the decoder (drops -0, undefined, …). */
export const viaJson = <A>(value: A): A => JSON.parse(JSON.stringify(value))

export const validBodies = Arbitrary.schema(ValidBody).pipe(Arbitrary.map(viaJson))

export const bodyFields = [
  "model",
  "messages",
  "stream",
  "prune",
  "pruneOptions",
  "systemPrompt",
  "promptType",
  "allowedTools",
  "contextStrategy",
  "sandboxId",
  "context",
  "toolContext",
  "validateOnly"
] as const

/** A valid body with one top-level field removed or replaced by any JSON value. */
export const mutatedBodies = Arbitrary.all({
  body: validBodies,
  field: Arbitrary.schema(Schema.Literals(bodyFields)),
  remove: Arbitrary.schema(Schema.Boolean),
  value: Arbitrary.schema(Schema.Json)
})

const PlainMessage = Schema.Struct({ id: Schema.optionalKey(Schema.String), role: Role, content: Schema.String })

const PlainBody = Schema.Struct({
  model: ModelId,
  messages: Schema.Array(PlainMessage),
  stream: Schema.optionalKey(Schema.Boolean),
  prune: Schema.optionalKey(Schema.Boolean),
  validateOnly: Schema.optionalKey(Schema.Boolean),
  systemPrompt: Schema.optionalKey(Schema.String)
})

const plainMutations = [
  "model",
  "messages",
  "stream",
  "prune",
  "validateOnly",
  "systemPrompt",
  "pruneOptions",
  "contextStrategy",
  "id",
  "message.id",
  "message.role",
  "message.content",
  "message.parts",
  "message.metadata"
] as const

/** Bodies of the plain form `{model, messages: [{role, content}], stream?, …}`, half of them with one field set to any JSON value. */
export const plainishBodies = plainishOf(PlainBody, plainMutations)
