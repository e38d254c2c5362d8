import { isModelId } from "../../domain/ChatRequest.ts"
import { hasOnly } from "../../domain/isRecord.ts"
import { plainTextMessages } from "../plainMessages.ts"
import type { CompletionRequest } from "./request.ts"

const plainFields = new Set(["model", "messages", "stream", "stream_options"])
const usageFields = new Set(["include_usage"])
const roles = new Set<CompletionRequest["messages"][number]["role"]>(["system", "developer", "user", "assistant"])

/**
 * The schema's decoding of the common Chat Completions body, found without
 * the schema interpreter (tens of thousands of instructions a request, as
 * on the other doors, BENCHMARKS.md): a model id, messages of a role and a
 * string, at most `stream` and `stream_options: {include_usage}`. Any other
 * body is undefined and goes to the schema;
 * test/protocols/chat-completions/decode.test.ts checks that both agree.
 */
export const plainCompletionRequest = (body: unknown): CompletionRequest | undefined => {
  if (!hasOnly(body, plainFields)) return undefined
  const { messages, model, stream, stream_options } = body
  if (!isModelId(model)) return undefined
  if (stream !== undefined && stream !== null && typeof stream !== "boolean") return undefined
  let options: CompletionRequest["stream_options"] = null
  if (stream_options !== undefined && stream_options !== null) {
    if (!hasOnly(stream_options, usageFields)) return undefined
    const { include_usage } = stream_options
    if (include_usage !== undefined && typeof include_usage !== "boolean") return undefined
    options = include_usage === undefined ? {} : { include_usage }
  }
  const decoded = plainTextMessages(messages, roles)
  if (decoded === undefined) return undefined
  return {
    model,
    messages: decoded,
    ...(stream === undefined ? {} : { stream: stream as boolean | null }),
    ...(stream_options === undefined ? {} : { stream_options: options })
  }
}
