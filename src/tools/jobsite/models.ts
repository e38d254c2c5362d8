import { APICallError, type LanguageModelV4 } from "@ai-sdk/provider"
import { generateText, jsonSchema, type ModelMessage, NoObjectGeneratedError, Output } from "ai"
import { Effect, Result, Schema } from "effect"
import { allowsModel } from "../../domain/ApiKey.ts"
import { type JobsiteModelConfig, replyCategories, ReplyCategory } from "../../domain/JobsiteConfig.ts"
import type { ModelRegistry } from "../../models/ModelRegistry.ts"
import { type ToolExecution, ToolFailure } from "../Tool.ts"

/** The two models a reply takes: one classifies the message, one writes the reply. */
export interface ReplyModels {
  readonly classify: LanguageModelV4
  readonly reply: LanguageModelV4
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

/** `context.modelConfig.classifyModel`/`replyModel` when set, else the run's own model. */
export const resolveModels = (
  models: ModelRegistry["Service"],
  execution: ToolExecution<{ readonly modelConfig?: JobsiteModelConfig }>
): ReplyModels | ToolFailure => {
  const config = execution.context.modelConfig
  const classify = configuredModel(models, execution, "classifyModel", config?.classifyModel)
  if (classify instanceof ToolFailure) return classify
  const reply = configuredModel(models, execution, "replyModel", config?.replyModel)
  if (reply instanceof ToolFailure) return reply
  return { classify, reply }
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

/** A structured model call: which reply category the message belongs to. */
export const classify = (model: LanguageModelV4, instructions: string, prompt: string) =>
  Effect.tryPromise({
    try: (abortSignal) =>
      generateText({
        model,
        instructions,
        prompt,
        abortSignal,
        output: Output.object({ schema: categorySchema, name: "category" })
      }),
    catch: modelFailure("classify the message")
  }).pipe(Effect.map((result) => result.output.category))

/** The reply text, as the model wrote it. */
export const writeReply = (model: LanguageModelV4, instructions: string, messages: Array<ModelMessage>) =>
  Effect.tryPromise({
    try: (abortSignal) => generateText({ model, instructions, messages, abortSignal }),
    catch: modelFailure("write the reply")
  }).pipe(
    Effect.map((result) => result.text.trim()),
    Effect.filterOrFail((text) => text !== "", () => new ToolFailure("The model returned an empty reply."))
  )
