import type { JSONSchema7, LanguageModelV4FunctionTool } from "@ai-sdk/provider"
import { JsonSchema, Result, Schema } from "effect"
import type { Tool } from "./Tool.ts"

/**
 * What a tool's input schema compiles to: the function tool the model is
 * offered and the decoder of the model's arguments. The agent sends and
 * decodes with it; the pruner counts the same definitions.
 */
export interface CompiledTool {
  readonly definition: LanguageModelV4FunctionTool
  readonly decode: (input: unknown) => Result.Result<unknown, Schema.SchemaError>
}

// Once per Tool: tools are long-lived and compiling a schema is not cheap.
const compiled = new WeakMap<Tool, CompiledTool>()

// Providers take draft-07 JSON Schema with definitions inline in the root object.
const toProviderJsonSchema = (schema: Tool["inputSchema"]): JSONSchema7 => {
  const document = JsonSchema.toDocumentDraft07(Schema.toJsonSchemaDocument(schema))
  const root = document.schema as JSONSchema7
  return Object.keys(document.definitions).length === 0
    ? root
    : { ...root, definitions: document.definitions as JSONSchema7["definitions"] }
}

export const compileTool = (tool: Tool): CompiledTool => {
  let entry = compiled.get(tool)
  if (entry === undefined) {
    entry = {
      definition: {
        type: "function",
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputJsonSchema ?? toProviderJsonSchema(tool.inputSchema)
      },
      // The JSON Schema describes the canonical JSON codec, so decode through it.
      decode: Schema.decodeUnknownResult(Schema.toCodecJson(tool.inputSchema))
    }
    compiled.set(tool, entry)
  }
  return entry
}

/** The function tools the model is offered for `tools`, in their order. */
export const toolDefinitions = (tools: ReadonlyArray<Tool>): Array<LanguageModelV4FunctionTool> =>
  tools.map((tool) => compileTool(tool).definition)
