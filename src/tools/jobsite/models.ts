import { APICallError, type LanguageModelV4 } from "@ai-sdk/provider"
import {
  generateText,
  jsonSchema,
  type LanguageModelUsage,
  type ModelMessage,
  NoObjectGeneratedError,
  Output
} from "ai"
import { Effect, Result, Schema } from "effect"
import { allowsModel } from "../../domain/ApiKey.ts"
import { type JobsiteModelConfig, replyCategories, ReplyCategory } from "../../domain/JobsiteConfig.ts"
import type { ModelRegistry } from "../../models/ModelRegistry.ts"
import { modelCallUsage } from "../modelCallUsage.ts"
import { type ToolExecution, ToolFailure } from "../Tool.ts"

/** The two models a reply takes: one classifies the message, one writes the reply. */
export interface ReplyModels {
  readonly classify: MeteredModel
  readonly reply: MeteredModel
}

// The key's allow-list is checked before the registry, so a key cannot probe which models exist.
const configuredModel = (
  models: ModelRegistry["Service"],
  execution: ToolExecution<unknown>,
  field: "classifyModel" | "replyModel",
  id: string | undefined
): LanguageModelV4 | ToolFailure => {
  if (id === undefined) {
    return execution.model ?? new ToolFailure(`No model to write with: set context.modelConfig.${field}.`)
  }
  if (!allowsModel(execution.key, id)) {
    return new ToolFailure(`context.modelConfig.${field} names a model your API key may not use: ${id}`)
  }
  return models.find(id)?.model ?? new ToolFailure(`context.modelConfig.${field} names an unknown model: ${id}`)
}

/**
 * `context.modelConfig.classifyModel`/`replyModel` when set, else the run's
 * own model; each reports its calls' usage to the execution's sink under its id.
 */
export const resolveModels = (
  models: ModelRegistry["Service"],
  execution: ToolExecution<{ readonly modelConfig?: JobsiteModelConfig }>
): ReplyModels | ToolFailure => {
  const config = execution.context.modelConfig
  const classify = configuredModel(models, execution, "classifyModel", config?.classifyModel)
  if (classify instanceof ToolFailure) return classify
  const reply = configuredModel(models, execution, "replyModel", config?.replyModel)
  if (reply instanceof ToolFailure) return reply
  const metered = (model: LanguageModelV4, id: string | undefined): MeteredModel => ({
    model,
    report: (usage) => execution.reportUsage(modelCallUsage(usage), id)
  })
  return { classify: metered(classify, config?.classifyModel), reply: metered(reply, config?.replyModel) }
}

// What the model is told: enough to retry or to tell the user, never the provider's raw error body.
const modelFailure = (step: string) => (error: unknown): ToolFailure => {
  if (NoObjectGeneratedError.isInstance(error)) {
    return new ToolFailure(`The model did not ${step} in the expected form.`)
  }
  if (APICallError.isInstance(error)) {
    return new ToolFailure(`The model could not ${step}: the provider answered ${error.statusCode ?? "with an error"}.`)
  }
  return new ToolFailure(`The model could not ${step}.`)
}

const decodeCategory = Schema.decodeUnknownResult(Schema.Struct({ category: ReplyCategory }))

const categorySchema = jsonSchema<{ category: ReplyCategory }>({
  type: "object",
  properties: { category: { type: "string", enum: [...replyCategories] } },
  required: ["category"],
  additionalProperties: false
}, {
  validate: (value) => {
    const result = decodeCategory(value)
    return Result.isSuccess(result)
      ? { success: true, value: result.success }
      : { success: false, error: new Error(result.failure.message) }
  }
})

/** A model of the reply and how its calls are counted: `report` takes each call's usage (docs/DESIGN.md §7). */
export interface MeteredModel {
  readonly model: LanguageModelV4
  readonly report: (usage: LanguageModelUsage) => void
}

/** A structured model call: which reply category the message belongs to. */
export const classify = ({ model, report }: MeteredModel, instructions: string, prompt: string) =>
  Effect.tryPromise({
    try: (abortSignal) =>
      generateText({
        model,
        instructions,
        prompt,
        abortSignal,
        output: Output.object({ schema: categorySchema, name: "category" })
      }),
    catch: (error) => {
      // An answer in the wrong form still cost its tokens.
      if (NoObjectGeneratedError.isInstance(error) && error.usage !== undefined) report(error.usage)
      return modelFailure("classify the message")(error)
    }
  }).pipe(Effect.map((result) => {
    report(result.totalUsage)
    return result.output.category
  }))

/** The reply text, as the model wrote it. */
export const writeReply = ({ model, report }: MeteredModel, instructions: string, messages: Array<ModelMessage>) =>
  Effect.tryPromise({
    try: (abortSignal) => generateText({ model, instructions, messages, abortSignal }),
    catch: modelFailure("write the reply")
  }).pipe(
    Effect.map((result) => {
      report(result.totalUsage)
      return result.text.trim()
    }),
    Effect.filterOrFail((text) => text !== "", () => new ToolFailure("The model returned an empty reply."))
  )
