import { HttpApiSchema } from "effect/http-api"
import { ErrorBody } from "../domain/Catalog.ts"

/** The error body at each status the endpoints document in OpenAPI. */
export const errorAt = (status: 400 | 401 | 403 | 404 | 409 | 413 | 500 | 503) =>
  ErrorBody.annotate({ identifier: `Error${status}` }).pipe(HttpApiSchema.status(status))
