import { Effect, Result, Schema, SchemaAST } from "effect"
import type { PromptType } from "../domain/PromptType.ts"
import { type Tool, type ToolExecution, ToolFailure, type ToolModelOutput } from "./Tool.ts"

/** The context fields a tool reads, each with its schema; `Schema.optionalKey` marks a field it can run without. */
export type ContextFields = { readonly [field: string]: Schema.Top }

/** The context a tool's `execute` receives: its declared fields, decoded. */
export type ContextOf<Fields extends ContextFields> = Schema.Struct<Fields>["Type"]

export interface ToolSpec<Input extends Schema.Codec<unknown, unknown>, Fields extends ContextFields> {
  readonly name: string
  readonly description: string
  readonly category: string
  readonly inputSchema: Input
  /**
   * Declared once: the required fields are checked before the run (a 400 or a
   * skipped tool when missing or malformed) and GET /tools lists them; all are
   * decoded for `execute`.
   */
  readonly context?: Fields
  readonly requiresSandbox?: boolean
  /** For a tool that runs without a sandbox but uses one the request names: what for (see `Tool`). */
  readonly optionalSandbox?: string
  /** The prompt types whose tool set holds this tool (docs/DESIGN.md §3.12). */
  readonly promptTypes: ReadonlyArray<PromptType>
  readonly execute: (
    input: Input["Type"],
    execution: ToolExecution<ContextOf<Fields>>
  ) => Effect.Effect<unknown, ToolFailure>
  /**
   * How an output (as JSON) is told to the model when JSON text would not do,
   * e.g. a screenshot as an image. Applied in the run and to this tool's
   * outputs in the client's history alike. Absent: text for a string, JSON otherwise.
   */
  readonly toModelOutput?: (output: unknown) => ToolModelOutput
}

/**
 * A tool, typed from its schemas: `execute` receives the decoded input and the
 * decoded context. The result is the erased `Tool` the registry holds.
 */
export const defineTool = <Input extends Schema.Codec<unknown, unknown>, Fields extends ContextFields = {}>(
  spec: ToolSpec<Input, Fields>
): Tool => {
  const fields = spec.context ?? ({} as Fields)
  const declared = Object.entries(fields).map(([field, schema]) => ({ field, schema }))
  const decodeContext = Schema.decodeUnknownResult(
    Schema.Struct(fields) as unknown as Schema.Codec<ContextOf<Fields>, unknown>
  )
  // The loop passes one merged context object per tool and run: decode it once,
  // and hand every call of the run the same decoded object (the browser keys
  // a request's pages on it).
  const decoded = new WeakMap<object, Result.Result<ContextOf<Fields>, Schema.SchemaError>>()
  const contextOf = (raw: Readonly<Record<string, unknown>>) => {
    let result = decoded.get(raw)
    if (result === undefined) {
      result = decodeContext(raw)
      decoded.set(raw, result)
    }
    return result
  }
  return {
    name: spec.name,
    description: spec.description,
    category: spec.category,
    inputSchema: spec.inputSchema,
    requiredContext: declared.filter(({ schema }) => !SchemaAST.isOptional(schema.ast)),
    optionalContext: declared.filter(({ schema }) => SchemaAST.isOptional(schema.ast)),
    requiresSandbox: spec.requiresSandbox ?? false,
    ...(spec.optionalSandbox === undefined ? {} : { optionalSandbox: spec.optionalSandbox }),
    promptTypes: spec.promptTypes,
    ...(spec.toModelOutput === undefined ? {} : { toModelOutput: spec.toModelOutput }),
    execute: (input, execution) => {
      const context = contextOf(execution.context)
      return Result.isFailure(context)
        ? Effect.fail(new ToolFailure(`The ${spec.name} context is malformed: ${context.failure.message}`))
        // `input` is what `inputSchema` decoded (the loop decodes before it executes).
        : spec.execute(input as Input["Type"], { ...execution, context: context.success })
    }
  }
}
