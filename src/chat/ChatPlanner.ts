import { Clock, Context, Duration, Effect, Layer } from "effect"
import type { AgentRun, ApprovalAnswer, ApprovalGate } from "../agent/AgentRun.ts"
import { RunMeter } from "../agent/RunMeter.ts"
import { allowsModel, type ApiKey } from "../domain/ApiKey.ts"
import { Admission } from "../governance/Admission.ts"
import { Approvals } from "../governance/Approvals.ts"
import { McpRegistry } from "../mcp/McpRegistry.ts"
import { resolveMcpTools } from "../mcp/resolveMcpTools.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"
import { targetOrder } from "../models/ModelRoute.ts"
import { InvalidPromptType } from "../prompts/promptErrors.ts"
import { checkPromptType, resolveSystemPrompt } from "../prompts/resolveSystemPrompt.ts"
import { Pruner, pruneTarget } from "../prune/Pruner.ts"
import { checkTool, isUsable, mergeContext } from "../tools/contextCheck.ts"
import { selectTools } from "../tools/selectTools.ts"
import { missingToolContext } from "../tools/toolErrors.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { checkApprovals } from "./approvalCheck.ts"
import type { ChatPlan, ChatPlanFailure } from "./chatPlan.ts"
import type { InternalChatRequest } from "./chatRequest.ts"
import { checkClientTools } from "./clientToolCheck.ts"
import { EmptyConversation, ModelNotAllowed, UnknownModel } from "./planErrors.ts"
import { validationReport } from "./validationReport.ts"

/** Spec limits: 30 tool-call steps and 300 s per request. */
export const MAX_STEPS = 30
export const MAX_DURATION = Duration.seconds(300)

// The allow-list is checked first so a key cannot probe which models exist.
const modelProblem = (key: ApiKey, model: string, found: boolean) =>
  !allowsModel(key, model)
    ? new ModelNotAllowed({ model })
    : !found
    ? new UnknownModel({ model })
    : undefined

/** The run continues the last turn when it answers approval requests (docs/DESIGN.md §10). */
const resumeOf = (chat: InternalChatRequest, answers: ReadonlyArray<ApprovalAnswer>): AgentRun["resume"] =>
  answers.length === 0 ? undefined : { messageId: chat.continues, answers }

/**
 * `max_tokens` for the model calls: only what the caller asked for, with
 * prune=true and pruneOptions.maxOutputTokens, capped like the pruner's
 * reserve by what the model can generate (docs/DESIGN.md §3.11). Otherwise
 * none: sending the model's maximum on every call makes providers count it
 * against rate limits.
 */
const outputCap = (chat: InternalChatRequest, modelMax: number | undefined): number | undefined => {
  const asked = chat.maxOutputTokens ?? (chat.prune ? chat.pruneOptions.maxOutputTokens : undefined)
  // 0 reserves no room and asks for no cap: no provider takes `max_tokens: 0`.
  return asked === undefined || asked === 0 ? undefined : Math.min(asked, modelMax ?? asked)
}

/** Which calls wait for a person (the key's rules and those the request adds), and their approval ids, issued at `now` (docs/DESIGN.md §10). */
const approvalGate = (
  key: ApiKey,
  admission: Admission["Service"],
  approvals: Approvals["Service"],
  now: number,
  chat: InternalChatRequest
): ApprovalGate | undefined => {
  const also = new Set(chat.approvalAlso)
  return key.approvalRequired.length === 0 && also.size === 0 ? undefined : {
    requires: (toolName) => also.has(toolName) || admission.needsApproval(key, toolName),
    requestId: ({ input, toolCallId, toolName }) =>
      approvals.ids.issue({ keyId: key.id, toolCallId, toolName, input }, now),
    refusal: chat.approvalRefusal
  }
}

const make = Effect.gen(function*() {
  const admission = yield* Admission
  const approvals = yield* Approvals
  const models = yield* ModelRegistry
  const registry = yield* ToolRegistry
  const mcpServers = yield* McpRegistry
  const pruner = yield* Pruner

  /**
   * A chat request up to the run, in the order of docs/DESIGN.md §2 (the
   * protocol decoded it): promptType, model (its format is the decoder's), tools against
   * the key, their sandbox, context per tool and contextStrategy; then the
   * conversation and pruning. validateOnly and contextStrategy=report turn
   * every finding into a ValidationReport instead of a failure.
   *
   * Untraced: a span costs ~20 µs a call, and this runs on every request (BENCHMARKS.md).
   */
  const plan = Effect.fnUntraced(function*(chat: InternalChatRequest, key: ApiKey) {
    const reporting = chat.validateOnly || chat.contextStrategy === "report"

    const promptType = checkPromptType(chat.promptType)
    if (promptType instanceof InvalidPromptType) return yield* promptType

    const found = models.find(chat.model)
    const problem = modelProblem(key, chat.model, found !== undefined)
    if (problem !== undefined && !reporting) return yield* problem

    // MCP tools named in allowedTools, from their servers' lists (docs/DESIGN.md §9): a server
    // that cannot list them is a 503 under contextStrategy=error, skipped tools otherwise.
    const mcp = yield* resolveMcpTools(chat.allowedTools, key, mcpServers)
    if (mcp.unavailable.length > 0 && chat.contextStrategy === "error") return yield* mcp.unavailable[0]!.error
    const unavailable = new Set(mcp.unavailable.map((entry) => entry.name))
    const find = (name: string) => registry.get(name) ?? mcp.get(name)
    const selection = selectTools(
      promptType,
      unavailable.size === 0 ? chat.allowedTools : chat.allowedTools?.filter((name) => !unavailable.has(name)),
      registry,
      (name) => admission.tool(key, name, find),
      reporting
    )
    if (!("tools" in selection)) return yield* selection
    yield* admission.sandbox(key, selection.tools, chat.sandboxId)

    const checks = selection.tools.map((tool) =>
      checkTool(tool, mergeContext(tool.name, chat.context, chat.toolContext), chat.sandboxId)
    )
    const usable = checks.filter(isUsable)
    const system = resolveSystemPrompt({
      systemPrompt: chat.systemPrompt,
      promptType: chat.promptType,
      context: chat.context as { systemPrompts?: Record<string, string> } | undefined
    })

    if (reporting) {
      // A preview of pruning needs a usable model: its window and tokenizer set the budget.
      const prune = chat.prune && found !== undefined && problem === undefined
        ? yield* pruner.preview({
          system,
          messages: chat.messages,
          origins: chat.origins,
          options: chat.pruneOptions,
          ...pruneTarget(found.entry, usable.map((check) => check.tool))
        })
        : undefined
      const rejected = [
        ...selection.rejected,
        ...mcp.unavailable.map(({ error, name }) => ({ name, error: error.message }))
      ]
      const report = validationReport(problem, checks, rejected, prune, (name) => admission.needsApproval(key, name))
      return { _tag: "Report", report } satisfies ChatPlan
    }

    const failed = checks.filter((check) => !isUsable(check))
    if (failed.length > 0 && chat.contextStrategy === "error") return yield* missingToolContext(failed)
    const clashing = checkClientTools(chat, usable.map((check) => check.name))
    if (clashing !== undefined) return yield* clashing

    // What the protocol found wrong with the conversation as a whole (docs/DESIGN.md §3.18, §10).
    if (chat.conversationProblem !== undefined) return yield* chat.conversationProblem
    if (chat.messages.length === 0 && chat.prepareOnly !== true) return yield* new EmptyConversation()
    const input = chat.messages
    const answers = chat.approvals ?? []
    const now = yield* Clock.currentTimeMillis
    const forged = checkApprovals(answers, key, approvals, new Set(usable.map((check) => check.name)), now)
    if (forged !== undefined) return yield* forged

    const { entry, route } = found!
    const targets = route === undefined ? undefined : targetOrder(route)
    const pruned = chat.prune
      ? yield* pruner.prune({
        system,
        messages: input,
        origins: chat.origins,
        options: chat.pruneOptions,
        ...pruneTarget(entry, usable.map((check) => check.tool))
      })
      : undefined
    const messages = pruned === undefined ? input : pruned.messages
    const maxOutputTokens = outputCap(chat, entry.maxOutputTokens)
    const run: AgentRun = {
      model: targets?.[0]?.model ?? found!.model,
      provider: targets?.[0]?.provider ?? entry.provider,
      route: targets === undefined ? undefined : { targets, firstChunkTimeoutMs: route!.firstChunkTimeoutMs },
      system,
      messages,
      tools: usable.map((check) => ({ tool: check.tool, context: check.context })),
      clientTools: chat.clientTools,
      toolChoice: chat.toolChoice,
      settings: chat.settings,
      sandboxId: chat.sandboxId ?? null,
      key,
      maxSteps: MAX_STEPS,
      timeout: MAX_DURATION,
      maxOutputTokens,
      meter: new RunMeter(entry.id),
      approval: approvalGate(key, admission, approvals, now, chat),
      resume: resumeOf(chat, answers)
    }
    return {
      _tag: "Run",
      run,
      entry,
      approvals: answers,
      stream: chat.stream,
      tools: {
        used: usable.map((check) => check.name),
        skipped: [...failed.map((check) => check.name), ...unavailable, ...chat.skippedTools ?? []]
      },
      pruned: pruned?.pruned === true
    } satisfies ChatPlan
  })

  return { plan }
})

/** Turns a decoded chat request into what to answer: a ValidationReport or an agent run. */
export class ChatPlanner extends Context.Service<ChatPlanner, {
  readonly plan: (request: InternalChatRequest, key: ApiKey) => Effect.Effect<ChatPlan, ChatPlanFailure>
}>()("parley/chat/ChatPlanner") {
  static readonly layer = Layer.effect(ChatPlanner, make)
}
