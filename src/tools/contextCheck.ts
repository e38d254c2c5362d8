import { Result, Schema } from "effect"
import { isRecord } from "../domain/isRecord.ts"
import type { Tool } from "./Tool.ts"

export interface StructureError {
  readonly field: string
  readonly issues: ReadonlyArray<string>
}

/** A requested tool with its merged context and what that context lacks. */
export interface ToolCheck {
  readonly name: string
  readonly tool: Tool
  readonly context: Readonly<Record<string, unknown>>
  readonly missingContext: ReadonlyArray<string>
  readonly structureErrors: ReadonlyArray<StructureError>
}

/** `context` with `toolContext[name]` over it: docs/spec.md, POST /chat rule 9, per tool. */
export const mergeContext = (
  name: string,
  context: Readonly<Record<string, unknown>> | undefined,
  toolContext: Readonly<Record<string, unknown>> | undefined
): Readonly<Record<string, unknown>> => {
  const own = toolContext?.[name]
  return isRecord(own) ? { ...context, ...own } : { ...context }
}

const decoders = new WeakMap<Schema.Top, (u: unknown) => Result.Result<unknown, Schema.SchemaError>>()
const decoderOf = (schema: Schema.Top) => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)
    decoders.set(schema, decode)
  }
  return decode
}

/**
 * Checks a tool's required context for presence and structure. A sandbox tool
 * without a sandboxId reports `sandboxId` as missing (docs/DESIGN.md §3.13).
 */
export const checkTool = (
  tool: Tool,
  context: Readonly<Record<string, unknown>>,
  sandboxId: string | null | undefined
): ToolCheck => {
  const missingContext: Array<string> = []
  const structureErrors: Array<StructureError> = []
  for (const requirement of tool.requiredContext) {
    const value = context[requirement.field]
    if (value === undefined || value === null) {
      missingContext.push(requirement.field)
      continue
    }
    if (requirement.schema === undefined) continue
    const result = decoderOf(requirement.schema)(value)
    if (Result.isFailure(result)) {
      structureErrors.push({ field: requirement.field, issues: result.failure.message.split("\n") })
    }
  }
  if (tool.requiresSandbox && (sandboxId === undefined || sandboxId === null || sandboxId === "")) {
    missingContext.push("sandboxId")
  }
  return { name: tool.name, tool, context, missingContext, structureErrors }
}

export const isUsable = (check: ToolCheck): boolean =>
  check.missingContext.length === 0 && check.structureErrors.length === 0
