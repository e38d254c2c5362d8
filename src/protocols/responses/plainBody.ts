import { isModelId } from "../../domain/ChatRequest.ts"
import { hasOnly } from "../../domain/isRecord.ts"
import type { ResponsesRequest } from "./request.ts"

const plainFields = new Set(["model", "input", "instructions", "stream", "store"])

const isOptional = (value: unknown, type: "string" | "boolean") =>
  value === undefined || value === null || typeof value === type

/**
 * The schema's decoding of the common Responses body, found without the
 * schema interpreter (its ~35 k instructions a request were most of what
 * the door cost beyond `POST /api/v1/chat`, BENCHMARKS.md): a model id, the
 * input as one string, at most `instructions`, `stream` and `store`. Any
 * other body is undefined and goes to the schema;
 * test/protocols/responses/decode.test.ts checks that both agree.
 */
export const plainResponsesRequest = (body: unknown): ResponsesRequest | undefined => {
  if (!hasOnly(body, plainFields)) return undefined
  const { input, instructions, model, store, stream } = body
  if (!isModelId(model) || typeof input !== "string" || !isOptional(instructions, "string")) return undefined
  if (!isOptional(stream, "boolean") || !isOptional(store, "boolean")) return undefined
  return {
    model,
    input,
    ...(instructions === undefined ? {} : { instructions: instructions as string | null }),
    ...(stream === undefined ? {} : { stream: stream as boolean | null }),
    ...(store === undefined ? {} : { store: store as boolean | null })
  }
}
