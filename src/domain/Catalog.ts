import { Schema } from "effect"
import { Count } from "./Count.ts"

/** Wire shapes of the read-only endpoints (GET /models, /tools, /prompt-types, /config-schema). */
export const ModelInfo = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  categories: Schema.Array(Schema.String),
  contextWindow: Schema.optionalKey(Count)
})

export const ToolInfo = Schema.Struct({
  name: Schema.String,
  description: Schema.String,
  category: Schema.String,
  requiresSandbox: Schema.Boolean,
  optionalSandbox: Schema.optionalKey(
    Schema.String.annotate({
      description: "Present when the tool runs without a sandbox but uses one named by sandboxId: what for."
    })
  ),
  requiredContext: Schema.Array(Schema.String),
  promptTypes: Schema.Array(Schema.String)
})

export const PromptTypeInfo = Schema.Struct({
  id: Schema.String,
  description: Schema.String
})

const FieldInfo = Schema.Struct({ type: Schema.String, required: Schema.Boolean, description: Schema.String })

const envelope = <S extends Schema.Top>(data: S) => Schema.Struct({ success: Schema.Literal(true), data })

export const ModelsResponse = envelope(Schema.Struct({ models: Schema.Array(ModelInfo) }))
export const ToolsResponse = envelope(Schema.Struct({ tools: Schema.Array(ToolInfo) }))
export const PromptTypesResponse = envelope(Schema.Struct({ promptTypes: Schema.Array(PromptTypeInfo) }))
export const ConfigSchemaResponse = envelope(
  Schema.Struct({
    context: Schema.Record(Schema.String, Schema.Unknown),
    sandboxId: FieldInfo,
    toolContext: FieldInfo
  })
)

/** The error body of every non-2xx answer. */
export const ErrorBody = Schema.Struct({
  error: Schema.String,
  message: Schema.String,
  statusCode: Schema.Int,
  correlationId: Schema.optionalKey(Schema.String),
  details: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
