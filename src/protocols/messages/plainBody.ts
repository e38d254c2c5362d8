import { isModelId } from "../../domain/ChatRequest.ts"
import { hasOnly } from "../../domain/isRecord.ts"
import { plainTextMessages } from "../plainMessages.ts"
import type { MessagesRequest } from "./request.ts"

const plainFields = new Set(["model", "max_tokens", "messages", "stream", "system"])
const roles = new Set<MessagesRequest["messages"][number]["role"]>(["user", "assistant", "system"])

/**
 * The schema's decoding of the common Messages body, found without the
 * schema interpreter (its ~45 k instructions a request were most of what
 * the door cost beyond `POST /api/v1/chat`, BENCHMARKS.md): a model id,
 * `max_tokens`, messages of a role and a string, at most `stream` and a
 * string `system`. Any other body is undefined and goes to the schema;
 * test/protocols/messages/decode.test.ts checks that both agree.
 */
export const plainMessagesRequest = (body: unknown): MessagesRequest | undefined => {
  if (!hasOnly(body, plainFields)) return undefined
  const { max_tokens, messages, model, stream, system } = body
  if (!isModelId(model) || !Number.isSafeInteger(max_tokens) || (max_tokens as number) < 1) return undefined
  if (stream !== undefined && typeof stream !== "boolean") return undefined
  if (system !== undefined && typeof system !== "string") return undefined
  const decoded = plainTextMessages(messages, roles)
  if (decoded === undefined) return undefined
  return {
    model,
    messages: decoded,
    ...(system === undefined ? {} : { system }),
    max_tokens: max_tokens as number,
    ...(stream === undefined ? {} : { stream })
  }
}
