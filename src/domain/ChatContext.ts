import { Schema } from "effect"
import { ConfigData, ReplyPrompts } from "./JobsiteConfig.ts"

const JsonObject = Schema.Record(Schema.String, Schema.Unknown)

/**
 * The global context shared by tools (spec: ChatContext). Every field is
 * optional; fields not listed here are kept, because tools may define their own.
 */
export const ChatContext = Schema.StructWithRest(
  Schema.Struct({
    preferredBrand: Schema.optionalKey(Schema.String.annotate({ description: "Preferred brand name." })),
    modelConfig: Schema.optionalKey(
      JsonObject.annotate({
        description: "Per-provider model configuration (object; structure defined by the provider)."
      })
    ),
    configData: Schema.optionalKey(
      JsonObject.annotate({ description: "Business configuration (object); needed by jobsite_reply_generator." })
    ),
    systemPrompts: Schema.optionalKey(
      Schema.Record(Schema.String, Schema.String).annotate({
        description: "Map from promptType key to system prompt text (string values)."
      })
    ),
    replyPrompts: Schema.optionalKey(
      JsonObject.annotate({ description: "Reply prompt configuration (object); needed by jobsite_reply_generator." })
    ),
    partnerToken: Schema.optionalKey(
      Schema.NullOr(Schema.String).annotate({
        description: "Access token for a partner API, or null; needed by partner-related tools."
      })
    ),
    defaultMessengerId: Schema.optionalKey(
      Schema.NullOr(Schema.String).annotate({
        description: "Default account id used by messaging tools, or null."
      })
    )
  }),
  [JsonObject]
).annotate({
  description:
    "Global context shared by tools. All fields are optional; further fields are kept and passed to tools that define them."
})
export type ChatContext = typeof ChatContext.Type

export const SandboxIdSchema = Schema.NullOr(Schema.String).annotate({
  description:
    "Id of an externally provided sandbox environment (see `parley sandbox create`). Required by tools that need a sandbox, such as bash and computer. null means no sandbox."
})

export const ToolContextSchema = Schema.Record(Schema.String, JsonObject).annotate({
  description:
    "Map from tool name to an object of that tool's own context. Its fields override same-named fields of `context` for that tool."
})

type JsonSchemaNode = {
  readonly type?: unknown
  readonly anyOf?: ReadonlyArray<JsonSchemaNode>
  readonly description?: unknown
}

const jsonSchemaOf = (schema: Schema.Top): JsonSchemaNode =>
  Schema.toJsonSchemaDocument(schema).schema as JsonSchemaNode

/** The JSON type of a schema, ignoring `null` (nullability is "not given" for these optional fields). */
const typeOf = (node: JsonSchemaNode): string => {
  const types = node.anyOf?.map((member) => member.type) ?? [node.type]
  return String(types.find((type) => type !== "null"))
}

/** A field entry of GET /config-schema: `{type, required, description}`. */
const fieldInfo = (schema: Schema.Top) => {
  const node = jsonSchemaOf(schema)
  return { type: typeOf(node), required: false, description: String(node.description) }
}

/**
 * ChatContext as GET /config-schema publishes it: with the structures
 * jobsite_reply_generator checks. Requests still decode any object there, so a
 * malformed one reaches the per-tool check and is reported as `structureErrors`.
 */
const PublishedChatContext = Schema.StructWithRest(
  ChatContext.schema.mapFields((fields) => ({
    ...fields,
    configData: Schema.optionalKey(ConfigData),
    replyPrompts: Schema.optionalKey(ReplyPrompts)
  })),
  ChatContext.records
).annotate({ description: Schema.resolveAnnotations(ChatContext)?.description })

/**
 * The body of GET /config-schema: the JSON Schema of `context` and the
 * spec's `{type, required, description}` entries for `sandboxId` and
 * `toolContext`, all generated from the schemas above.
 */
export const configSchemaDocument = () => {
  const context = Schema.toJsonSchemaDocument(PublishedChatContext)
  return {
    context: context.schema as Record<string, unknown>,
    sandboxId: fieldInfo(SandboxIdSchema),
    toolContext: fieldInfo(ToolContextSchema)
  }
}
