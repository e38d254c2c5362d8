import type { LanguageModelV4 } from "@ai-sdk/provider"
import { Effect } from "effect"
import { type ApiKey, allowsModel } from "../domain/ApiKey.ts"
import { BadRequest, Forbidden } from "../domain/errors.ts"
import { type Message, normalizeMessages } from "../domain/Message.ts"
import type { PruneOptions } from "../domain/PruneOptions.ts"
import type { ValidationReport } from "../domain/ValidationReport.ts"
import { type ModelEntry, ModelRegistry } from "../models/ModelRegistry.ts"
import { checkTool, isUsable, mergeContext, type ToolCheck } from "../tools/contextCheck.ts"
import { Pruner, pruneTarget } from "../prune/Pruner.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { checkPromptType, resolveSystemPrompt } from "../prompts/resolveSystemPrompt.ts"
import { checkSandboxAccess } from "../sandbox/sandboxAccess.ts"
import { selectTools } from "../tools/selectTools.ts"

/** The fields of a decoded ChatRequest that decide what runs. */
export interface ChatPlanInput {
  readonly model: string
  readonly systemPrompt?: string | undefined
  readonly promptType?: string | undefined
  readonly allowedTools?: ReadonlyArray<string> | undefined
  readonly contextStrategy: "error" | "skip" | "report"
  readonly validateOnly: boolean
  readonly sandboxId?: string | null | undefined
  readonly context?: Readonly<Record<string, unknown>> | undefined
  readonly toolContext?: Readonly<Record<string, unknown>> | undefined
  /** Previewed in the report when `prune` is set. */
  readonly messages?: ReadonlyArray<Message> | undefined
  readonly prune?: boolean | undefined
  readonly pruneOptions?: PruneOptions | undefined
}

export type ChatPlan =
  | { readonly _tag: "Report"; readonly report: ValidationReport }
  | {
    readonly _tag: "Run"
    readonly entry: ModelEntry
    readonly model: LanguageModelV4
    readonly system: string
    readonly tools: ReadonlyArray<ToolCheck>
    readonly skipped: ReadonlyArray<string>
  }

const modelProblem = (key: ApiKey, id: string, found: boolean): BadRequest | Forbidden | undefined => {
  // The allow-list is checked first so a key cannot probe which models exist.
  if (!allowsModel(key, id)) {
    return new Forbidden({ message: "Model not available with your API key", details: { model: id } })
  }
  if (!found) {
    const message = `Unknown model "${id}". GET /api/v1/models lists the models this key can use.`
    return new BadRequest({ message, details: { error: message, model: id } })
  }
  return undefined
}

const missingContextError = (failed: ReadonlyArray<ToolCheck>): BadRequest => {
  const missing = [...new Set(failed.flatMap((check) => check.missingContext))]
  const structureErrors = failed.flatMap((check) => check.structureErrors)
  const parts: Array<string> = []
  if (missing.length > 0) parts.push(`Missing required context: ${missing.join(", ")}`)
  if (structureErrors.length > 0) {
    parts.push(`Invalid context structure: ${[...new Set(structureErrors.map((e) => e.field))].join(", ")}`)
  }
  const message = parts.join("; ")
  const details: Record<string, unknown> = {
    error: message,
    missingContext: missing,
    tools: failed.map((check) => check.name),
    strategy: "error"
  }
  if (structureErrors.length > 0) details.structureErrors = structureErrors
  return new BadRequest({ message, details })
}

/**
 * Decides what a request runs, in the order of DESIGN §2: promptType, model
 * (format is checked by the decoder), tools against the key, context per tool
 * and contextStrategy. validateOnly and contextStrategy=report turn every
 * finding into a ValidationReport instead of an error.
 *
 * Untraced: a span costs ~20 µs a call, and this runs on every request (BENCHMARKS.md).
 */
export const prepareChat = Effect.fnUntraced(function*(request: ChatPlanInput, key: ApiKey) {
  const models = yield* ModelRegistry
  const registry = yield* ToolRegistry
  const reporting = request.validateOnly || request.contextStrategy === "report"

  const promptType = checkPromptType(request.promptType)
  if (promptType instanceof BadRequest) return yield* promptType

  const found = models.find(request.model)
  const problem = modelProblem(key, request.model, found !== undefined)
  if (problem !== undefined && !reporting) return yield* problem

  const selection = selectTools(promptType, request.allowedTools, key, registry, reporting)
  if (!("tools" in selection)) return yield* selection
  yield* checkSandboxAccess(selection.tools, request.sandboxId, key)

  const checks = selection.tools.map((tool) =>
    checkTool(tool, mergeContext(tool.name, request.context, request.toolContext), request.sandboxId)
  )

  const system = resolveSystemPrompt({
    systemPrompt: request.systemPrompt,
    promptType: request.promptType,
    context: request.context as { systemPrompts?: Record<string, string> } | undefined
  })

  if (reporting) {
    const tools = [
      ...checks.map((check) => {
        const valid = isUsable(check)
        return {
          name: check.name,
          valid,
          ...(check.missingContext.length > 0 ? { missingContext: check.missingContext } : {}),
          ...(check.structureErrors.length > 0 ? { structureErrors: check.structureErrors } : {}),
          ...(valid ? {} : { error: missingContextError([check]).message })
        }
      }),
      ...selection.rejected.map(({ name, error }) => ({ name, valid: false, error }))
    ]
    const model = problem === undefined ? { valid: true } : { valid: false, error: problem.message }
    // A preview of pruning needs a usable model: its window and tokenizer set the budget.
    const prune = request.prune === true && request.pruneOptions !== undefined && found !== undefined && problem === undefined
      ? yield* (yield* Pruner).preview({
        system,
        messages: normalizeMessages(request.messages ?? []),
        options: request.pruneOptions,
        ...pruneTarget(found.entry, checks.filter(isUsable).map((check) => check.tool))
      })
      : undefined
    const report: ValidationReport = {
      valid: model.valid && tools.every((t) => t.valid),
      model,
      tools,
      ...(prune === undefined ? {} : { prune })
    }
    return { _tag: "Report", report } as const
  }

  const failed = checks.filter((check) => !isUsable(check))
  if (failed.length > 0 && request.contextStrategy === "error") return yield* missingContextError(failed)

  return {
    _tag: "Run",
    entry: found!.entry,
    model: found!.model,
    system,
    tools: checks.filter(isUsable),
    skipped: failed.map((check) => check.name)
  } as const
})
