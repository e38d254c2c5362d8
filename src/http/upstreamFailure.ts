import type { UpstreamError } from "../agent/UpstreamError.ts"
import { InternalServerError, ServiceUnavailable } from "../domain/errors.ts"

/**
 * DESIGN §3.8: an unreachable, rate-limited or failing provider (after
 * retries) is 503 naming the provider; anything else it refuses is 500.
 * UpstreamError messages are already free of keys and stacks.
 */
export const upstreamFailure = (error: UpstreamError): ServiceUnavailable | InternalServerError =>
  error.retryable
    ? new ServiceUnavailable({
      message: `The model provider "${error.provider}" is unavailable right now. Retry later.`,
      details: { provider: error.provider, ...(error.status === undefined ? {} : { status: error.status }) }
    })
    : new InternalServerError({
      message: `The model provider "${error.provider}" refused the request: ${error.message}`,
      details: { error: error.message, provider: error.provider }
    })
