import type { UIMessage } from "ai"
import { Duration, Effect } from "effect"
import type { AgentRun } from "../agent/AgentRun.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import { decodeChatRequest } from "../domain/ChatRequest.ts"
import { BadRequest } from "../domain/errors.ts"
import { normalizeMessages } from "../domain/Message.ts"
import type { ValidationReport } from "../domain/ValidationReport.ts"
import type { ModelRegistry } from "../models/ModelRegistry.ts"
import { Pruner, pruneTarget } from "../prune/Pruner.ts"
import type { ToolRegistry } from "../tools/ToolRegistry.ts"
import { prepareChat } from "./prepareChat.ts"

/** Spec limits: 30 tool-call steps and 300 s per request. */
export const MAX_STEPS = 30
export const MAX_DURATION = Duration.seconds(300)

/** What a chat request turned into, before anything is sent: a report, or a run and how to answer it. */
export type ChatStart =
  | { readonly _tag: "Report"; readonly report: ValidationReport; readonly headers: Record<string, string> }
  | {
    readonly _tag: "Run"
    readonly run: AgentRun
    readonly stream: boolean
    /** The conversation as the client sent it (normalized), which a JSON answer repeats. */
    readonly input: ReadonlyArray<UIMessage>
    readonly tools: { readonly used: ReadonlyArray<string>; readonly skipped: ReadonlyArray<string> }
    readonly headers: Record<string, string>
  }

/**
 * POST /api/v1/chat up to the run, in the order of DESIGN §2: decode, plan
 * (model, prompt, tools, context), prune. Independent of how the answer is
 * written. Services are taken once, when the route is built.
 */
export const makeStartChat = Effect.gen(function*() {
  const pruner = yield* Pruner
  const services = yield* Effect.context<ModelRegistry | ToolRegistry | Pruner>()

  // Untraced: a span costs ~20 µs a call, and this runs on every request (BENCHMARKS.md).
  return Effect.fnUntraced(function*(body: unknown, key: ApiKey) {
    const headers: Record<string, string> = {}
    const chat = yield* decodeChatRequest(body)
    const plan = yield* prepareChat(chat, key).pipe(Effect.provideContext(services))
    if (plan._tag === "Report") return { _tag: "Report", report: plan.report, headers } satisfies ChatStart

    // Decoding allows none so validateOnly needs no conversation; a run needs one.
    if (chat.messages.length === 0) {
      const message = `Invalid request: "messages" must contain at least one message`
      return yield* new BadRequest({ message, details: { error: message } })
    }
    const input: ReadonlyArray<UIMessage> = normalizeMessages(chat.messages)
    let messages = input
    if (chat.prune) {
      const result = yield* pruner.prune({
        system: plan.system,
        messages: input,
        options: chat.pruneOptions,
        ...pruneTarget(plan.entry, plan.tools.map((check) => check.tool))
      })
      messages = result.messages
      if (result.pruned) headers["x-message-pruned"] = "true"
    }
    if (plan.skipped.length > 0) headers["x-tools-skipped"] = plan.skipped.join(",")

    const run: AgentRun = {
      model: plan.model,
      provider: plan.entry.provider,
      system: plan.system,
      messages,
      tools: plan.tools.map((check) => ({ tool: check.tool, context: check.context })),
      sandboxId: chat.sandboxId ?? null,
      key,
      maxSteps: MAX_STEPS,
      timeout: MAX_DURATION,
      maxOutputTokens: plan.entry.maxOutputTokens
    }
    const tools = { used: plan.tools.map((check) => check.name), skipped: plan.skipped }
    return { _tag: "Run", run, stream: chat.stream, input, tools, headers } satisfies ChatStart
  })
})
