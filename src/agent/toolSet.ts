import type { JSONSchema7, LanguageModelV4FunctionTool } from "@ai-sdk/provider"
import { JsonSchema, Result, Schema } from "effect"
import type { Tool } from "../tools/Tool.ts"
import type { ResolvedTool } from "./AgentRun.ts"

/** What a tool's input schema compiles to, once per Tool (tools are long-lived). */
interface CompiledTool {
  readonly definition: LanguageModelV4FunctionTool
  readonly decode: (input: unknown) => Result.Result<unknown, Schema.SchemaError>
}

const compiled = new WeakMap<Tool, CompiledTool>()

// Providers take draft-07 JSON Schema with definitions inline in the root object.
const toProviderJsonSchema = (schema: Schema.Codec<any, any>): JSONSchema7 => {
  const document = JsonSchema.toDocumentDraft07(Schema.toJsonSchemaDocument(schema))
  const root = document.schema as JSONSchema7
  return Object.keys(document.definitions).length === 0
    ? root
    : { ...root, definitions: document.definitions as JSONSchema7["definitions"] }
}

const compile = (tool: Tool): CompiledTool => {
  let entry = compiled.get(tool)
  if (entry === undefined) {
    entry = {
      definition: {
        type: "function",
        name: tool.name,
        description: tool.description,
        inputSchema: toProviderJsonSchema(tool.inputSchema)
      },
      // The JSON Schema describes the canonical JSON codec, so decode through it.
      decode: Schema.decodeUnknownResult(Schema.toCodecJson(tool.inputSchema))
    }
    compiled.set(tool, entry)
  }
  return entry
}

/** One tool as the loop runs it: the contract, its merged context, its decoder. */
export interface RunTool extends CompiledTool {
  readonly tool: Tool
  readonly context: Readonly<Record<string, unknown>>
}

export interface ToolSet {
  /** Function tools for the model call; `undefined` when there are none. */
  readonly definitions: Array<LanguageModelV4FunctionTool> | undefined
  readonly byName: ReadonlyMap<string, RunTool>
}

export const makeToolSet = (tools: ReadonlyArray<ResolvedTool>): ToolSet => {
  const byName = new Map<string, RunTool>()
  for (const { context, tool } of tools) byName.set(tool.name, { ...compile(tool), tool, context })
  return {
    definitions: byName.size === 0 ? undefined : Array.from(byName.values(), (entry) => entry.definition),
    byName
  }
}
