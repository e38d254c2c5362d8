import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { ErrorBody } from "../domain/Catalog.ts"

/** The error body at each status the endpoints document in OpenAPI. */
export const errorAt = (status: 400 | 401 | 403 | 404 | 409 | 413 | 500 | 503) =>
  ErrorBody.annotate({ identifier: `Error${status}` }).pipe(HttpApiSchema.status(status))

/**
 * OpenAI's error envelope, as the OpenAI doors answer (protocols/openai/error.ts):
 * `type` is OpenAI's for the status, `code` names parley's failure in snake case.
 */
const OpenAiErrorBody = Schema.Struct({
  error: Schema.Struct({
    message: Schema.String,
    type: Schema.String,
    param: Schema.NullOr(Schema.String),
    code: Schema.NullOr(Schema.String)
  })
})

/** OpenAI's error body at each status the OpenAI doors document in OpenAPI. */
export const openAiErrorAt = (status: 400 | 401 | 403 | 404 | 413 | 429 | 500 | 503) =>
  OpenAiErrorBody.annotate({ identifier: `OpenAiError${status}` }).pipe(HttpApiSchema.status(status))
