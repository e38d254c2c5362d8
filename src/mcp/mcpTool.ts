import type { JSONSchema7 } from "@ai-sdk/provider"
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { Effect, Schema } from "effect"
import { type Tool, ToolFailure } from "../tools/Tool.ts"
import type { CallToolResult, McpToolInfo } from "./McpConnection.ts"
import { mcpModelOutput, toolOutput } from "./mcpResult.ts"
import { mcpToolName } from "./toolNames.ts"

const validator = new AjvJsonSchemaValidator()

/** Runs one tools/call on the tool's server; fails with what the model may be told. */
export type McpCall = (
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal
) => Effect.Effect<CallToolResult, ToolFailure>

/**
 * An MCP server's tool as a parley tool (docs/DESIGN.md §9): `<server>__<tool>`,
 * category `mcp`, no context, no sandbox, in no prompt type's set. The model
 * is offered the server's JSON Schema; its arguments are checked against it
 * before the call, as the loop checks a built-in tool's.
 */
export const makeMcpTool = (server: string, info: McpToolInfo, call: McpCall): Tool => {
  const validate = validator.getValidator<Record<string, unknown>>(info.inputSchema as JsonSchemaType)
  const inputSchema = Schema.Unknown.check(Schema.makeFilter((input: unknown) => {
    const result = validate(input)
    return result.valid || (result.errorMessage ?? "does not match the tool's input schema")
  }))
  return {
    name: mcpToolName(server, info.name),
    description: info.description ?? info.title ?? info.name,
    category: "mcp",
    inputSchema,
    inputJsonSchema: info.inputSchema as JSONSchema7,
    requiredContext: [],
    requiresSandbox: false,
    promptTypes: [],
    toModelOutput: mcpModelOutput,
    execute: (input, execution) =>
      call(info.name, input as Record<string, unknown>, execution.signal).pipe(
        Effect.flatMap((result) => {
          const output = toolOutput(result)
          return output instanceof ToolFailure ? Effect.fail(output) : Effect.succeed(output)
        })
      )
  }
}
