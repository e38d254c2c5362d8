import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import type { AppConfig } from "../../config/AppConfig.ts"
import { type ContextOf, defineTool } from "../defineTool.ts"
import { scrub } from "../messaging/redact.ts"
import type { UrlPolicy } from "../outbound/urlPolicy.ts"
import { type ToolExecution, ToolFailure } from "../Tool.ts"
import { sendMessage } from "./partnerApi.ts"
import { partnerContext } from "./PartnerContext.ts"
import { defaultRetryPolicy, type RetryPolicy } from "./retryPolicy.ts"

const Text = Schema.String.check(Schema.isMinLength(1))

export const ChatMessageInput = Schema.Struct({
  to: Text.annotate({ description: "The contact's id on the chat app, e.g. the candidate's." }),
  text: Text.annotate({ description: "The message to send." })
})
export type ChatMessageInput = typeof ChatMessageInput.Type

export interface ChatMessageOptions {
  readonly retry?: Partial<RetryPolicy>
  /** Where a partner API named in tool context may point; the server's own setting is trusted. */
  readonly policy?: UrlPolicy
}

/**
 * One key per tool call, the same on each of its retries: readable (the tool
 * call it belongs to) and unique (providers reuse ids such as "call_0" across
 * conversations, and the same words to the same contact may be meant twice).
 */
export const idempotencyKeyFor = (toolCallId: string): string => {
  const readable = toolCallId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64)
  return `${readable === "" ? "call" : readable}.${randomUUID()}`
}

const send = (
  config: Pick<AppConfig["Service"], "partnerApiBaseUrl">,
  policy: RetryPolicy,
  urlPolicy: UrlPolicy | undefined
) =>
  Effect.fn("chat_message")(function*(
    input: ChatMessageInput,
    execution: ToolExecution<ContextOf<ReturnType<typeof partnerContext>>>
  ) {
    const { defaultMessengerId, partnerApiUrl, partnerToken } = execution.context
    // Without a server URL the context requires partnerApiUrl (PartnerContext.ts), so one of them is set.
    const baseUrl = partnerApiUrl ?? config.partnerApiBaseUrl!
    const receipt = yield* sendMessage({
      baseUrl,
      urlPolicy: partnerApiUrl === undefined ? undefined : urlPolicy,
      token: partnerToken,
      idempotencyKey: idempotencyKeyFor(execution.toolCallId),
      from: defaultMessengerId,
      to: input.to,
      text: input.text
    }, policy).pipe(Effect.mapError((failure) => new ToolFailure(scrub(failure.message, [partnerToken]))))
    return {
      sent: true,
      messageId: receipt.id ?? null,
      status: receipt.status ?? null,
      from: defaultMessengerId,
      to: input.to,
      attempts: receipt.attempts
    }
  })

/**
 * `chat_message` (docs/DESIGN.md §3.12): sends a message to a contact through the
 * partner messaging API (wire contract: `chat/partnerApi.ts`) as
 * `defaultMessengerId`, authenticated with `partnerToken`, which stays
 * `Redacted` from decoding to the Authorization header.
 */
export const makeChatMessage = (
  config: Pick<AppConfig["Service"], "partnerApiBaseUrl">,
  options: ChatMessageOptions = {}
) =>
  defineTool({
    name: "chat_message",
    description:
      "Sends a chat-app message to a contact (e.g. a candidate) from the recruiting account. Use it to follow up outside the job site, e.g. with interview details. Returns the partner's message id.",
    category: "chat messaging",
    inputSchema: ChatMessageInput,
    context: partnerContext(config.partnerApiBaseUrl),
    promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"],
    execute: send(config, { ...defaultRetryPolicy, ...options.retry }, options.policy)
  })
