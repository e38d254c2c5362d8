import type { JSONSchema7, JSONSchema7Definition } from "@ai-sdk/provider"
import { JsonSchema, Schema, SchemaAST } from "effect"
import type { ContextField, Tool } from "./Tool.ts"

/** A tool's declared context as JSON Schema, with the definitions its `$ref`s point to (at the document's root). */
export interface ContextJsonSchema {
  readonly schema: JSONSchema7
  readonly definitions: Readonly<Record<string, JSONSchema7Definition>>
}

// A field declared for presence only (no schema) takes any value.
const schemaOf = (field: ContextField): Schema.Top => field.schema ?? Schema.Unknown

/**
 * What a field is for: its schema's description (on the encoded side, where a
 * secret's wrapped schema keeps it and the JSON Schema may not), else one
 * naming the tool.
 */
const descriptionOf = (tool: Tool, field: ContextField) =>
  (field.schema && SchemaAST.resolveDescription(SchemaAST.toEncoded(field.schema.ast))) ??
    `Context field ${field.field} of ${tool.name}.`

/**
 * The JSON Schema of the context `tool` declares: its required fields listed
 * in `required`, its optional ones beside them, each with its type and a
 * description. `undefined` for a tool that declares none.
 */
export const contextJsonSchema = (tool: Tool): ContextJsonSchema | undefined => {
  const optional = tool.optionalContext ?? []
  if (tool.requiredContext.length === 0 && optional.length === 0) return undefined
  const struct = Schema.Struct(Object.fromEntries([
    ...tool.requiredContext.map((field) => [field.field, schemaOf(field)]),
    ...optional.map((field) => {
      const schema = schemaOf(field)
      return [field.field, SchemaAST.isOptional(schema.ast) ? schema : Schema.optionalKey(schema)]
    })
  ]))
  const document = JsonSchema.toDocumentDraft07(Schema.toJsonSchemaDocument(struct))
  const root = document.schema as JSONSchema7
  const properties = root.properties ?? {}
  return {
    schema: {
      ...root,
      properties: Object.fromEntries(
        [...tool.requiredContext, ...optional].map((field) => {
          const property = properties[field.field]
          const described = typeof property === "object" ? property : {}
          return [field.field, { ...described, description: described.description ?? descriptionOf(tool, field) }]
        })
      )
    },
    definitions: document.definitions as ContextJsonSchema["definitions"]
  }
}
