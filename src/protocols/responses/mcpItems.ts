import type { Answering } from "../../http/chatProtocol.ts"
import { compileTool } from "../../tools/toolDefinition.ts"
import { hostedToolOf } from "../hostedTools.ts"
import type { JsonTemplate } from "../jsonTemplate.ts"
import { argumentsOf } from "../toolArguments.ts"
import type { ResponsesWire } from "./decode.ts"
import { approvalItemId } from "./hostedMcp.ts"
import {
  itemAdded,
  type ItemEvent,
  listToolsCompleted,
  listToolsInProgress,
  mcpArgumentsDone,
  mcpCallCompleted,
  mcpCallFailed,
  mcpCallInProgress,
  type OutputItem
} from "./itemEvents.ts"

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

/** The events of an `mcp_list_tools` item before it is done: the listing was made before the run. */
export const listToolsEvents = (item: OutputItem, index: number): ReadonlyArray<ItemEvent> => {
  const [id, at] = [JSON.stringify(item.id), `${index}`]
  return [
    itemAdded.fill(at, JSON.stringify({ ...item, tools: [] })),
    listToolsInProgress.fill(id, at),
    listToolsCompleted.fill(id, at)
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
export const mcpCallStarted = (
  call: { readonly idJson: string; readonly indexJson: string; readonly delta: JsonTemplate<readonly [unknown]> },
  args: string
): ReadonlyArray<ItemEvent> => {
  const { delta, idJson, indexJson } = call
  const argsJson = JSON.stringify(args)
  return [
    mcpCallInProgress.fill(idJson, indexJson),
    delta.fill(argsJson),
    mcpArgumentsDone.fill(idJson, indexJson, argsJson)
  ]
}

/** A call's outcome: its output, or its error as an MCP tool's execution error. */
export interface CallOutcome {
  readonly output?: unknown
  readonly errorText?: string | undefined
}

/**
 * The item a finished `mcp_call` is, and its closing event (`id` and `at`: its id and index as JSON texts);
 * a call with no outcome (a run cut short) is incomplete.
 */
export const mcpCallDone = (
  item: OutputItem,
  id: string,
  at: string,
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
  return [finished, (failed ? mcpCallFailed : mcpCallCompleted).fill(id, at)]
}

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
