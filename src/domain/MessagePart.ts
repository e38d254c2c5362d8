import { Result, Schema } from "effect"
import type { SchemaAST } from "effect"
import { FileUrl } from "./FileUrl.ts"
import { wellFormed } from "./wellFormed.ts"

/** Parts keep fields beyond the required ones (providerMetadata, state, …): the AI SDK reads them. */
const Rest = [Schema.Record(Schema.String, Schema.Unknown)] as const

const part = <const Type extends string, Fields extends Schema.Struct.Fields>(type: Type, fields: Fields) =>
  Schema.StructWithRest(Schema.Struct({ type: Schema.Literal(type), ...fields }), Rest)

const TextPart = part("text", { text: Schema.String })
const FilePart = part("file", { mediaType: Schema.String, url: FileUrl })

const toolStates = [
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied"
] as const

const Approval = Schema.StructWithRest(Schema.Struct({ id: Schema.String }), Rest)

const toolCallFields = {
  toolCallId: Schema.String,
  state: Schema.Literals(toolStates),
  input: Schema.optionalKey(Schema.Unknown),
  output: Schema.optionalKey(Schema.Unknown),
  errorText: Schema.optionalKey(Schema.String),
  approval: Schema.optionalKey(Approval)
}

/** Fields a tool part must carry in each state, beyond toolCallId and state. */
const requiredByState: Record<(typeof toolStates)[number], ReadonlyArray<string>> = {
  "input-streaming": [],
  "input-available": ["input"],
  "approval-requested": ["input", "approval"],
  "approval-responded": ["input", "approval"],
  "output-available": ["input", "output"],
  "output-error": ["input", "errorText"],
  "output-denied": ["input", "approval"]
}

const stateFields = Schema.makeFilter((toolPart: { readonly state: (typeof toolStates)[number] }) =>
  requiredByState[toolPart.state]
    .filter((field) => !(field in toolPart))
    .map((field) => ({ path: [field], issue: `is required when "state" is "${toolPart.state}"` }))
)

const DynamicToolPart = part("dynamic-tool", { toolName: Schema.String.check(wellFormed), ...toolCallFields }).check(
  stateFields
)

const StaticToolPart = Schema.StructWithRest(
  Schema.Struct({ type: Schema.TemplateLiteral(["tool-", Schema.String]), ...toolCallFields }),
  Rest
).check(stateFields)

const DataPart = Schema.StructWithRest(
  Schema.Struct({ type: Schema.TemplateLiteral(["data-", Schema.String]), data: Schema.Unknown }),
  Rest
)

const byType: Record<string, Schema.Top> = {
  text: TextPart,
  reasoning: part("reasoning", { text: Schema.String }),
  file: FilePart,
  "reasoning-file": part("reasoning-file", { mediaType: Schema.String, url: FileUrl }),
  "source-url": part("source-url", { sourceId: Schema.String, url: Schema.String }),
  "source-document": part("source-document", {
    sourceId: Schema.String,
    mediaType: Schema.String,
    title: Schema.String
  }),
  "step-start": part("step-start", {}),
  custom: part("custom", { kind: Schema.String }),
  "steering-message": part("steering-message", {
    id: Schema.String,
    parts: Schema.Array(Schema.Union([TextPart, FilePart]))
  }),
  "dynamic-tool": DynamicToolPart
}

type Decoder = (input: unknown, options?: SchemaAST.ParseOptions) => Result.Result<unknown, Schema.SchemaError>
const decoderOf = (schema: Schema.Top): Decoder => Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)

const decoders = new Map(Object.entries(byType).map(([type, schema]) => [type, decoderOf(schema)]))
const decodeStaticTool = decoderOf(StaticToolPart)
const decodeData = decoderOf(DataPart)

const decoderFor = (type: string): Decoder | undefined =>
  decoders.get(type) ??
    (type.startsWith("tool-") ? decodeStaticTool : type.startsWith("data-") ? decodeData : undefined)

const knownTypes = [...Object.keys(byType), "tool-<name>", "data-<name>"].join(", ")

/**
 * One part of a full-form message, validated structurally by its `type`
 * (dispatching on `type` instead of a plain union keeps the error about the
 * part the client meant, not about every other part type).
 */
export const MessagePart = Schema.StructWithRest(Schema.Struct({ type: Schema.String }), Rest)
  .check(
    Schema.makeFilter(
      (input, _ast, options) => {
        const decode = decoderFor(input.type)
        if (decode === undefined) {
          return { path: ["type"], issue: `is not a known part type (${knownTypes})` }
        }
        const result = decode(input, options)
        return Result.isFailure(result) ? result.failure.issue : undefined
      },
      {
        toJsonSchema: () => ({
          anyOf: [...Object.values(byType), StaticToolPart, DataPart].map((schema) =>
            Schema.toJsonSchemaDocument(schema).schema
          )
        })
      }
    )
  )
  .annotate({
    description:
      "A UIMessage part. `text` carries `text`; `dynamic-tool` carries `toolName`, `toolCallId`, `state`, `input` and, once executed, `output`."
  })
export type MessagePart = typeof MessagePart.Type
