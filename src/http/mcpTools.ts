import type { CallToolResult, Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Result } from "effect"
import { allowsTool, type ApiKey } from "../domain/ApiKey.ts"
import { isRecord } from "../domain/isRecord.ts"
import type { Admission } from "../governance/Admission.ts"
import { ApprovalRequired, waitsForAPerson } from "../governance/approvalRequired.ts"
import type { ToolCallFacts } from "../ledger/toolCallEvent.ts"
import type { McpRegistry } from "../mcp/McpRegistry.ts"
import { resolveMcpTools } from "../mcp/resolveMcpTools.ts"
import { observeToolCall } from "../observability/observeToolCall.ts"
import { checkTool, isUsable, type ToolCheck } from "../tools/contextCheck.ts"
import { contextJsonSchema } from "../tools/contextSchema.ts"
import type { Tool, ToolModelOutput } from "../tools/Tool.ts"
import { compileTool } from "../tools/toolDefinition.ts"
import type { ToolNotAllowed, UnknownTool } from "../tools/toolErrors.ts"
import type { ToolRegistry } from "../tools/ToolRegistry.ts"
import { errorBody } from "./errorResponse.ts"
import type { ApiFailure } from "./errorTable.ts"

/** What /mcp runs tools with: the gateway's tools and MCP servers, under the admission chat runs pass. */
export interface McpToolServices {
  readonly tools: ToolRegistry["Service"]
  readonly mcp: McpRegistry["Service"]
  readonly admission: Admission["Service"]
}

/** The arguments that carry what a /chat request's body would: the tool's context and the sandbox. */
const CONTEXT_ARGUMENT = "_context"
const SANDBOX_ARGUMENT = "_sandboxId"

/**
 * A tool that waits for a person's approval (docs/DESIGN.md §10) is refused
 * here: the MCP protocol has no way to ask one. Listed all the same, marked
 * in `_meta` for clients and in its description for their models; its
 * refusal is marked the same way.
 */
const DOOR = "/mcp"
const APPROVAL_META = "parley/approvalRequired"
/** Where a refusal's error body goes: what `/api/v1/chat` answers for the same failure. */
const ERROR_META = "parley/error"

/**
 * A tool as MCP clients see it: its input schema, with `_context` when it
 * declares context (required, with its required fields, when it cannot run
 * without), `_sandboxId` when it needs one (required) or can use one
 * (optional, saying what for), and marked when the key's calls of it wait
 * for a person.
 */
const describe = (tool: Tool, needsApproval: boolean): McpToolInfo => {
  const schema = compileTool(tool).definition.inputSchema as McpToolInfo["inputSchema"]
  const extra: Record<string, object> = {}
  const required: Array<string> = []
  const context = contextJsonSchema(tool)
  if (context !== undefined) {
    const needed = tool.requiredContext.length > 0
    extra[CONTEXT_ARGUMENT] = {
      ...context.schema,
      description: `The tool's context (what a /chat request sends as \`context\`); ${
        needed
          ? `required: the tool cannot run without ${tool.requiredContext.map(({ field }) => field).join(", ")}`
          : "optional: the tool runs without it"
      }`
    }
    if (needed) required.push(CONTEXT_ARGUMENT)
  }
  if (tool.requiresSandbox) {
    extra[SANDBOX_ARGUMENT] = { type: "string", description: "The sandbox to run in (POST /api/v1/sandboxes)" }
    required.push(SANDBOX_ARGUMENT)
  } else if (tool.optionalSandbox !== undefined) {
    extra[SANDBOX_ARGUMENT] = {
      type: "string",
      description: `Optional: a sandbox id. ${tool.optionalSandbox} (Each /mcp call is a request of its own.)`
    }
  }
  const definitions = { ...(schema["definitions"] as object | undefined), ...context?.definitions }
  return {
    name: tool.name,
    description: needsApproval ? `${tool.description}\n\nThis tool ${waitsForAPerson(DOOR)}.` : tool.description,
    inputSchema: Object.keys(extra).length === 0
      ? schema
      : {
        ...schema,
        type: "object",
        properties: { ...schema.properties, ...extra },
        ...(required.length === 0 ? {} : { required: [...(schema.required ?? []), ...required] }),
        ...(Object.keys(definitions).length === 0 ? {} : { definitions })
      },
    ...(needsApproval ? { _meta: { [APPROVAL_META]: true } } : {})
  }
}

/** tools/list: the key's tools, built-in and from MCP servers that can list theirs now (docs/DESIGN.md §9). */
export const listToolsFor = (services: McpToolServices, key: ApiKey) =>
  Effect.map(
    services.mcp.toolsFor(key),
    (mcpTools) =>
      [...services.tools.all.filter((tool) => allowsTool(key, tool.name)), ...mcpTools].map((tool) =>
        describe(tool, services.admission.needsApproval(key, tool.name))
      )
  )

const toolError = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true })

/**
 * Refused by the admission (docs/DESIGN.md §11): a tool error saying what
 * `/api/v1/chat` says of the same failure, with its error body (`error`,
 * `statusCode`, `details`…) in `_meta`, so a client reads the same meaning on both paths.
 */
const refused = (failure: ApiFailure, correlationId: string): CallToolResult => ({
  ...toolError(failure.message),
  _meta: { [ERROR_META]: errorBody(failure, correlationId).body }
})

/** A tool that waits for a person: never run here, and marked as tools/list marks it. */
const waitsForPerson = (name: string): CallToolResult => ({
  ...toolError(new ApprovalRequired({ tool: name, door: DOOR }).message),
  _meta: { [APPROVAL_META]: true }
})

/** A tool output as MCP content: what the model would be told, images as images. */
const toContent = (tool: Tool, output: unknown): CallToolResult => {
  const told: ToolModelOutput = tool.toModelOutput?.(output) ??
    (typeof output === "string" ? { type: "text", value: output } : { type: "json", value: output as never })
  const structured = isRecord(output) && tool.toModelOutput === undefined ? { structuredContent: output } : {}
  switch (told.type) {
    case "text":
      return { content: [{ type: "text", text: told.value }] }
    case "content":
      return {
        content: told.value.map((part) =>
          part.type === "text"
            ? { type: "text" as const, text: part.text }
            : part.type === "file" && part.data.type === "data" && typeof part.data.data === "string" &&
                part.mediaType.startsWith("image/")
            ? { type: "image" as const, mimeType: part.mediaType, data: part.data.data }
            : { type: "text" as const, text: JSON.stringify(part) }
        )
      }
    default:
      return { content: [{ type: "text", text: JSON.stringify("value" in told ? told.value : output) }], ...structured }
  }
}

/**
 * What a call lacks or has malformed, as /chat's MissingToolContext says it,
 * then where a /mcp call sends it: `arguments._context.<field>`, `arguments._sandboxId`.
 */
const unusable = (tool: Tool, check: ToolCheck, sandboxId: string | null): string => {
  const missing = tool.requiredContext.map(({ field }) => field).filter((field) => check.missingContext.includes(field))
  const parts = missing.length === 0 ? [] : [
    `Missing required context: ${missing.join(", ")}; send ${missing.length === 1 ? "it" : "them"} as ${
      missing.map((field) => `arguments.${CONTEXT_ARGUMENT}.${field}`).join(", ")
    }`
  ]
  for (const { field, issues } of check.structureErrors) {
    parts.push(`Invalid context arguments.${CONTEXT_ARGUMENT}.${field}: ${issues.join("; ")}`)
  }
  if (tool.requiresSandbox && (sandboxId === null || sandboxId === "")) {
    parts.push(`Missing a sandbox: send its id as arguments.${SANDBOX_ARGUMENT} (POST /api/v1/sandboxes makes one)`)
  }
  return parts.join(". ")
}

/**
 * tools/call under the key's rules, admitted as a chat run's tools are
 * (docs/DESIGN.md §9, §11, `governance/Admission.ts`): the allow-list (a
 * tool off it, or none of that name, is a protocol error as an unknown tool
 * is), the approval list (a tool that waits for a person is refused, never
 * run), the context from `_context`, the sandbox from `_sandboxId` (and the
 * key's right to it), the input checked against the tool's schema, then the
 * request limits and the budgets. A refusal is a tool error saying what
 * `/api/v1/chat` would, its error body in `_meta` (`refused`); what the tool
 * or the request lacks is a tool error saying so; `signal` aborts the run.
 * `facts` collects the call's ledger row: the key, the tool's own model
 * usage (in its meter, charged to the budgets when the call ends), how it ended.
 */
export const callToolFor = (
  services: McpToolServices,
  facts: ToolCallFacts,
  call: { readonly name: string; readonly args: Record<string, unknown>; readonly correlationId: string },
  signal: AbortSignal
): Effect.Effect<CallToolResult, ToolNotAllowed | UnknownTool> =>
  Effect.gen(function*() {
    const { key, meter } = facts
    const { admission } = services
    const { args, correlationId, name } = call
    const { [CONTEXT_ARGUMENT]: rawContext, [SANDBOX_ARGUMENT]: rawSandbox, ...input } = args
    const mcpTools = yield* resolveMcpTools([name], key, services.mcp)
    const unavailable = mcpTools.unavailable[0]
    if (unavailable !== undefined) return refused(unavailable.error, correlationId)
    const tool = admission.tool(key, name, (found) => services.tools.get(found) ?? mcpTools.get(found))
    if ("_tag" in tool) return yield* Effect.fail(tool)
    if (admission.needsApproval(key, name)) {
      facts.refusedForApproval = true
      return waitsForPerson(name)
    }

    if (rawContext !== undefined && !isRecord(rawContext)) return toolError(`"${CONTEXT_ARGUMENT}" must be an object`)
    if (rawSandbox !== undefined && typeof rawSandbox !== "string") {
      return toolError(`"${SANDBOX_ARGUMENT}" must be a string`)
    }
    const context = rawContext ?? {}
    const sandboxId = rawSandbox ?? null
    const check = checkTool(tool, context, sandboxId)
    if (!isUsable(check)) return toolError(unusable(tool, check, sandboxId))
    const access = yield* Effect.result(admission.sandbox(key, [tool], sandboxId))
    if (Result.isFailure(access)) return refused(access.failure, correlationId)
    const decoded = compileTool(tool).decode(input)
    if (Result.isFailure(decoded)) return toolError(`Invalid input for ${name}: ${decoded.failure.message}`)

    // A tool call counts as a request against the key's and account's limits, and needs room in its budgets;
    // what the tool's own model calls use is charged when it ends (docs/DESIGN.md §11).
    const ran = admission.admit(key, { spent: () => meter.usageByModel() }, () => {
      meter.toolCalled(name)
      const toolCallId = `mcp_${crypto.randomUUID()}`
      // The call is the run: what the tool keeps for it (the browser's pages without a sandbox) closes when it ends.
      // It is counted and traced as a /chat run's tool calls are (docs/DESIGN.md §8).
      return Effect.scopedWith((runScope) =>
        observeToolCall(
          { tool: name, callId: toolCallId, input: () => decoded.success, protocol: "mcp" },
          tool.execute(decoded.success, {
            toolCallId,
            context,
            sandboxId,
            key,
            signal,
            reportUsage: meter.toolUsage,
            runScope
          })
        )
      ).pipe(
        Effect.map((output) => {
          facts.ran = "finished"
          return toContent(tool, output)
        }),
        Effect.catchCause((cause) => {
          facts.ran = "error"
          const error = Cause.findError(cause)
          return Result.isSuccess(error)
            ? Effect.succeed(toolError(error.success.message))
            : Effect.as(Effect.logWarning(`Tool ${name} failed unexpectedly`, cause), toolError(`Tool ${name} failed`))
        })
      )
    }, (result) => result)
    return yield* Effect.catch(ran, (error) => {
      // The ledger row says which limit (docs/DESIGN.md §11).
      facts.refusedLimit = error.limit
      return Effect.succeed(refused(error, correlationId))
    })
  })
