import type { ModelMessage } from "ai"
import type { TokenizerName } from "../../src/domain/TokenizerName.ts"
import { counterFor, type ToolDefinition } from "../../src/prune/tokenCount.ts"

/**
 * Conversations as the pruner takes them, and what the pruning rules say of
 * them, per client message (a unit: the model messages that came from one).
 */

export interface Conversation {
  readonly messages: ReadonlyArray<ModelMessage>
  /** Per model message, the client message it came from. */
  readonly origins: ReadonlyArray<number>
}

/** A client message: its origin, its role (a user's when all its model messages are) and its model messages. */
export interface Unit {
  readonly origin: number
  readonly role: ModelMessage["role"]
  readonly messages: ReadonlyArray<ModelMessage>
}

export const unitsOf = ({ messages, origins }: Conversation): Array<Unit> => {
  const units: Array<{ origin: number; role: ModelMessage["role"]; messages: Array<ModelMessage> }> = []
  messages.forEach((message, index) => {
    const last = units.at(-1)
    if (last !== undefined && last.origin === origins[index]) last.messages.push(message)
    else units.push({ origin: origins[index]!, role: message.role, messages: [message] })
  })
  return units.map((unit) => ({
    ...unit,
    role: unit.messages.find((message) => message.role !== "user")?.role ?? "user"
  }))
}

const conversationOf = (units: ReadonlyArray<Unit>): Conversation => ({
  messages: units.flatMap((unit) => unit.messages),
  origins: units.flatMap((unit) => unit.messages.map(() => unit.origin))
})

/** The client messages pruning must keep: the last N (at least one) non-system ones, back to a user message. */
export const preservedTail = (conversation: Conversation, preserve: number): Array<Unit> => {
  const history = unitsOf(conversation).filter((unit) => unit.role !== "system")
  let start = Math.max(0, history.length - Math.max(1, preserve))
  while (start > 0 && history[start]!.role !== "user") start--
  return history.slice(start)
}

export interface Scenario extends Conversation {
  readonly system: string
  readonly tools: ReadonlyArray<ToolDefinition>
  readonly tokenizer: TokenizerName
  readonly preserveRecentMessages: number
  readonly targetTokens: number
}

/** Tokens of the system prompt, tool definitions and these messages. */
export const tokensOf = (scenario: Scenario, messages: ReadonlyArray<ModelMessage>): number => {
  const counter = counterFor(scenario.tokenizer)
  return messages.reduce(
    (total, message) => total + counter.message(message),
    counter.system(scenario.system) + counter.tools(scenario.tools)
  )
}

/**
 * The input after a stage (applied to the client messages older than the
 * tail), optionally from the `from`-th history message on.
 */
export const staged = (
  scenario: Scenario,
  stage: (message: ModelMessage) => ModelMessage,
  from = 0
): Conversation => {
  const tail = new Set(preservedTail(scenario, scenario.preserveRecentMessages).map((unit) => unit.origin))
  let index = 0
  return conversationOf(
    unitsOf(scenario).flatMap((unit) => {
      if (unit.role === "system" || tail.has(unit.origin)) return [unit]
      return index++ >= from ? [{ ...unit, messages: unit.messages.map(stage) }] : []
    })
  )
}
