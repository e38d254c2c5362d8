import type { Answering } from "../../http/chatProtocol.ts"
import { compileTool } from "../../tools/toolDefinition.ts"
import { hostedToolOf } from "../hostedTools.ts"
import { argumentsOf } from "../toolArguments.ts"
import type { ResponsesWire } from "./decode.ts"
import { approvalItemId } from "./hostedMcp.ts"
import type { ItemEvent, OutputItem } from "./itemEvent.ts"

/** A server tool call as the items show it: by its server's label and its own name. */
export interface ServerCall {
  readonly toolName: string
  readonly input: unknown
}

/**
 * What the items need of a run with hosted MCP tools (docs/DESIGN.md §14):
 * the tools each label offers, which calls wait for a person (the
 * planner's own gate, so that such a call shows as an approval request
 * and never as a call), and the approved calls the run carries out first.
 */
export interface HostedView {
  readonly listings: ReadonlyArray<{ readonly label: string; readonly tools: ReadonlyArray<unknown> }>
  readonly needsApproval: (toolName: string) => boolean
  readonly resumed: ReadonlyMap<string, ServerCall & { readonly approvalId: string }>
}

/** The hosted view of an answer; `undefined` without `mcp` tools, whose server calls stay hidden. */
export const hostedViewOf = ({ plan, wire }: Answering<ResponsesWire>): HostedView | undefined => {
  if (wire.hosted.length === 0) return undefined
  const gate = plan.run.approval
  return {
    listings: wire.hosted.map((label) => ({
      label,
      tools: plan.run.tools.flatMap(({ tool }) => {
        const { name, server } = hostedToolOf(tool.name)
        if (server !== label) return []
        const { description, inputSchema } = compileTool(tool).definition
        return [{ name, description: description ?? null, input_schema: inputSchema, annotations: null }]
      })
    })),
    needsApproval: (toolName) => gate !== undefined && gate.refusal === undefined && gate.requires(toolName),
    resumed: new Map(plan.approvals.flatMap((answer) => answer.approved ? [[answer.toolCallId, answer] as const] : []))
  }
}

/** The events of an `mcp_list_tools` item, whole: the listing was made before the run. */
export const listToolsEvents = (item: OutputItem, index: number): ReadonlyArray<ItemEvent> => {
  const at = { item_id: item.id, output_index: index }
  return [
    { type: "response.output_item.added", output_index: index, item: { ...item, tools: [] } },
    { type: "response.mcp_list_tools.in_progress", ...at },
    { type: "response.mcp_list_tools.completed", ...at },
    { type: "response.output_item.done", output_index: index, item }
  ]
}

export const listToolsItem = (id: string, label: string, tools: ReadonlyArray<unknown>): OutputItem => ({
  id,
  type: "mcp_list_tools",
  server_label: label,
  tools
})

/** An `mcp_call` item as it opens (its id the tool call's, which the client sends back). */
export const mcpCallItem = (toolCallId: string, call: ServerCall, approvalId?: string): OutputItem => {
  const { name, server } = hostedToolOf(call.toolName)
  return {
    id: toolCallId,
    type: "mcp_call",
    server_label: server,
    name,
    arguments: "",
    status: "in_progress",
    ...(approvalId === undefined ? {} : { approval_request_id: approvalItemId(approvalId, toolCallId) })
  }
}

/** The events after an `mcp_call` opened: it runs, with its arguments whole (the call is known once it is whole). */
export const mcpCallStarted = (item: OutputItem, index: number, args: string): ReadonlyArray<ItemEvent> => {
  const at = { item_id: item.id, output_index: index }
  return [
    { type: "response.mcp_call.in_progress", ...at },
    { type: "response.mcp_call_arguments.delta", ...at, delta: args },
    { type: "response.mcp_call_arguments.done", ...at, arguments: args }
  ]
}

/** A call's outcome: its output, or its error as an MCP tool's execution error. */
export interface CallOutcome {
  readonly output?: unknown
  readonly errorText?: string | undefined
}

/** The item a finished `mcp_call` is, and its closing event; a call with no outcome (a run cut short) is incomplete. */
export const mcpCallDone = (
  item: OutputItem,
  index: number,
  args: string,
  outcome: CallOutcome | undefined
): [OutputItem, ItemEvent] => {
  const failed = outcome === undefined || outcome.errorText !== undefined
  const finished = {
    ...item,
    arguments: args,
    output: outcome?.errorText !== undefined || outcome === undefined
      ? null
      : typeof outcome.output === "string"
      ? outcome.output
      : JSON.stringify(outcome.output),
    error: outcome?.errorText === undefined
      ? null
      : { type: "mcp_tool_execution_error", content: [{ type: "text", text: outcome.errorText }] },
    status: outcome === undefined ? "incomplete" : failed ? "failed" : "completed"
  }
  const event = {
    type: failed ? "response.mcp_call.failed" : "response.mcp_call.completed",
    item_id: item.id,
    output_index: index
  }
  return [finished, event]
}

/** The events of an item sent whole (an approval request): added and done at once. */
export const finishedItemEvents = (item: OutputItem, index: number): ReadonlyArray<ItemEvent> => [
  { type: "response.output_item.added", output_index: index, item },
  { type: "response.output_item.done", output_index: index, item }
]

/** An `mcp_approval_request` item: its id the signed approval id and the call's (./hostedMcp.ts). */
export const approvalRequestItem = (approvalId: string, toolCallId: string, call: ServerCall): OutputItem => {
  const { name, server } = hostedToolOf(call.toolName)
  return {
    id: approvalItemId(approvalId, toolCallId),
    type: "mcp_approval_request",
    server_label: server,
    name,
    arguments: argumentsOf(call.input)
  }
}
