import { Effect, Schema } from "effect"
import { ConfigData, JobsiteModelConfig, ReplyPrompts } from "../../domain/JobsiteConfig.ts"
import type { ModelRegistry } from "../../models/ModelRegistry.ts"
import { type ContextOf, defineTool } from "../defineTool.ts"
import { type ToolExecution, ToolFailure } from "../Tool.ts"
import { DEFAULT_CHECK_BACK_REPLY, inventedFigures } from "./factGuard.ts"
import { factSheet, resolveBrand } from "./facts.ts"
import { classify, resolveModels, writeReply } from "./models.ts"
import { classifyInstructions, classifyPrompt, type Conversation, replyInstructions, replyMessages } from "./prompts.ts"

const Text = Schema.String.check(Schema.isMinLength(1))

export const JobsiteReplyInput = Schema.Struct({
  message: Text.annotate({ description: "The candidate's latest message, verbatim." }),
  history: Schema.optionalKey(
    Schema.Array(Schema.Struct({ role: Schema.Literals(["candidate", "recruiter"]), text: Schema.String })).annotate({
      description: "Earlier messages of this conversation, oldest first; the last 10 are used."
    })
  ),
  brand: Schema.optionalKey(
    Text.annotate({ description: "Brand the candidate asks about; default: context.preferredBrand." })
  ),
  position: Schema.optionalKey(Text.annotate({ description: "Position the candidate asks about, e.g. \"Barista\"." }))
})
export type JobsiteReplyInput = typeof JobsiteReplyInput.Type

const jobsiteContext = {
  configData: ConfigData,
  replyPrompts: ReplyPrompts,
  preferredBrand: Schema.optionalKey(Schema.String.annotate({
    description: "Brand to answer for when the input names none; needed when configData has several."
  })),
  modelConfig: Schema.optionalKey(JobsiteModelConfig.annotate({
    description: "Models that classify messages and write replies; default: the run's model."
  }))
}

const generate = (models: ModelRegistry["Service"]) =>
  Effect.fn("jobsite_reply_generator")(function*(
    input: JobsiteReplyInput,
    execution: ToolExecution<ContextOf<typeof jobsiteContext>>
  ) {
    const { configData: config, preferredBrand, replyPrompts: prompts } = execution.context
    const brand = resolveBrand(config, input.brand ?? preferredBrand)
    if (typeof brand === "string") return yield* Effect.fail(new ToolFailure(brand))
    const chosen = resolveModels(models, execution)
    if (chosen instanceof ToolFailure) return yield* Effect.fail(chosen)

    const conversation: Conversation = { message: input.message, history: input.history ?? [] }
    const category = yield* classify(chosen.classify, classifyInstructions, classifyPrompt(conversation))
    const sheet = factSheet(config, brand, category, input.message, input.position)
    const instructions = replyInstructions(prompts, category, sheet)
    const written = yield* writeReply(chosen.reply, instructions, replyMessages(conversation))

    const checkBack = prompts.checkBackReply ?? DEFAULT_CHECK_BACK_REPLY
    const invented = inventedFigures(written, [
      instructions,
      input.message,
      ...conversation.history.map((turn) => turn.text)
    ])
    if (invented.length > 0) {
      yield* Effect.logWarning("jobsite_reply_generator replaced a reply stating figures its facts lack").pipe(
        Effect.annotateLogs({ category, brand: brand.name, figures: invented.join(",") })
      )
    }
    return {
      reply: invented.length === 0 ? written : checkBack,
      category,
      brand: brand.name,
      facts: sheet.facts
    }
  })

/**
 * `jobsite_reply_generator` (docs/DESIGN.md §3.12): the recruiter's reply to a
 * candidate's message, from `context.configData` facts and
 * `context.replyPrompts` templates. Its models are `context.modelConfig`'s
 * `classifyModel`/`replyModel` (looked up in `models`, allowed by the key) or
 * the run's own model.
 */
export const makeJobsiteReplyGenerator = (models: ModelRegistry["Service"]) =>
  defineTool({
    name: "jobsite_reply_generator",
    description:
      "Writes the recruiter's reply to a job candidate's message on the job site. Classifies the message (first contact, pay, location, schedule, requirements, benefits, interview booking, off-topic), takes the brand's facts from the configuration and follows the configured reply template. The reply states only configured facts; for anything else it says the recruiter will check. Returns {reply, category, brand, facts}: send `reply` as it is.",
    category: "business",
    inputSchema: JobsiteReplyInput,
    context: jobsiteContext,
    promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"],
    execute: generate(models)
  })
