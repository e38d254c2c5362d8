import type { UIMessage } from "ai"
import { Duration, Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpServerResponse } from "effect/http"
import { Agent, type AgentRun } from "../agent/Agent.ts"
import { CurrentKey } from "../api/Authentication.ts"
import { prepareChat } from "../chat/prepareChat.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { decodeChatRequest } from "../domain/ChatRequest.ts"
import { BadRequest } from "../domain/errors.ts"
import { normalizeMessages } from "../domain/Message.ts"
import { ModelRegistry } from "../models/ModelRegistry.ts"
import { Pruner, pruneTarget } from "../prune/Pruner.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { jsonResponse, streamResponse } from "./chatResponses.ts"
import { readJsonBody } from "./readJsonBody.ts"

/** Spec limits: 30 tool-call steps and 300 s per request. */
export const MAX_STEPS = 30
export const MAX_DURATION = Duration.seconds(300)

/** POST /api/v1/chat, in the order of DESIGN §2. Services are taken once, when the routes are built. */
export const makeHandleChat = Effect.gen(function*() {
  const config = yield* AppConfig
  const agent = yield* Agent
  const pruner = yield* Pruner
  const services = yield* Effect.context<ModelRegistry | ToolRegistry | Pruner>()

  return Effect.fn("http.chat")(function*(request: HttpServerRequest.HttpServerRequest) {
    const key = yield* CurrentKey
    const headers: Record<string, string> = {}

    const body = yield* readJsonBody(request, config.bodyLimitBytes)
    const chat = yield* decodeChatRequest(body)
    const plan = yield* prepareChat(chat, key).pipe(Effect.provideContext(services))
    if (plan._tag === "Report") return HttpServerResponse.jsonUnsafe(plan.report, { headers })

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
    if (chat.stream) return yield* streamResponse(agent.stream(run), headers)
    const tools = { used: plan.tools.map((check) => check.name), skipped: plan.skipped }
    return yield* jsonResponse(agent.collect(run), input, tools, headers)
  })
})
