import { Schema } from "effect"

/**
 * The failures a request can end in. Each maps to one row of the spec's error
 * table (`http/errorResponse.ts` renders them); `details` is the optional
 * `details` object of the error body.
 */
const Details = Schema.optional(Schema.Record(Schema.String, Schema.Unknown))

export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  message: Schema.String,
  details: Details
}) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  message: Schema.String
}) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String,
  details: Details
}) {}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String,
  details: Details
}) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  message: Schema.String,
  details: Details
}) {}

export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  message: Schema.String,
  details: Details
}) {}

export class InternalServerError extends Schema.TaggedError<InternalServerError>()("InternalServerError", {
  message: Schema.String,
  details: Details
}) {}

/** Every error a /api/v1 handler may fail with. */
export type ApiFailure =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | PayloadTooLarge
  | ServiceUnavailable
  | InternalServerError

export const statusOf: Record<ApiFailure["_tag"], number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  PayloadTooLarge: 413,
  ServiceUnavailable: 503,
  InternalServerError: 500
}
