import { Effect, type Redacted, Schema } from "effect"
import { type ContextOf, defineTool } from "../defineTool.ts"
import { postJson } from "../messaging/postJson.ts"
import { scrub } from "../messaging/redact.ts"
import type { UrlPolicy } from "../outbound/urlPolicy.ts"
import { type ToolExecution, ToolFailure } from "../Tool.ts"
import { feishu } from "./feishu.ts"
import type { PlatformWire } from "./platform.ts"
import { slack } from "./slack.ts"
import { wecom } from "./wecom.ts"
import { workplaceContext } from "./WorkplaceContext.ts"

type WorkplaceContext = ContextOf<typeof workplaceContext>

const wires: Record<WorkplaceContext["platform"], PlatformWire> = { wecom, feishu, lark: feishu, slack }

export const WorkplaceMessageInput = Schema.Struct({
  text: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "The message for the group." }),
  format: Schema.optionalKey(
    Schema.Literals(["text", "markdown"]).annotate({ description: "\"text\" (default) or \"markdown\"." })
  )
})
export type WorkplaceMessageInput = typeof WorkplaceMessageInput.Type

export interface WorkplaceMessageOptions {
  /** Longest wait for the webhook (default 10 s). */
  readonly timeoutMs?: number
  /** The clock Feishu signatures use (tests pin it). */
  readonly now?: () => Date
  /** Where request-given webhook URLs may point (the server's outbound policy). */
  readonly policy?: UrlPolicy
}

const send = (options: WorkplaceMessageOptions) =>
  Effect.fn("workplace_message")(function*(input: WorkplaceMessageInput, execution: ToolExecution<WorkplaceContext>) {
    const { platform, secret, webhookUrl } = execution.context
    const secrets: Array<Redacted.Redacted<string>> = secret === undefined ? [webhookUrl] : [webhookUrl, secret]
    const wire = wires[platform]
    const message = { text: input.text, format: input.format ?? "text" } as const

    const tooLong = wire.tooLong(message)
    if (tooLong !== undefined) return yield* Effect.fail(new ToolFailure(tooLong))

    const answer = yield* postJson({
      service: `the ${wire.label} webhook`,
      url: webhookUrl,
      body: wire.payload(message, { secret, now: options.now?.() ?? new Date() }),
      timeoutMs: options.timeoutMs ?? 10_000,
      policy: options.policy
    })
    const refusal = wire.refusal(answer)
    if (refusal !== undefined) {
      const reason = scrub(refusal, secrets).slice(0, 400)
      yield* Effect.logWarning("workplace_message: the webhook refused the message").pipe(
        Effect.annotateLogs({ platform, status: answer.status, reason })
      )
      return yield* Effect.fail(new ToolFailure(reason))
    }
    return { sent: true, platform, format: message.format }
  })

/**
 * `workplace_message` (docs/DESIGN.md §3.12): posts to a workplace group through its
 * incoming webhook, in the wire format of `platform` (WeCom group robot,
 * Feishu/Lark custom bot, Slack incoming webhook). The webhook URL and the
 * signing secret are `Redacted` from decoding on and appear in no output or error.
 */
export const makeWorkplaceMessage = (options: WorkplaceMessageOptions = {}) =>
  defineTool({
    name: "workplace_message",
    description:
      "Posts a message to the recruiting team's workplace group chat (WeCom, Feishu/Lark or Slack, as configured), e.g. to hand over a candidate or report a booked interview. Plain text by default, or markdown.",
    category: "workplace messaging",
    inputSchema: WorkplaceMessageInput,
    context: workplaceContext,
    promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"],
    execute: send(options)
  })
