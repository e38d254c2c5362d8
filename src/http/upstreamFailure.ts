import { InternalServerError, ServiceUnavailable } from "../domain/errors.ts"
import type { ProviderFailure } from "../models/ProviderFailure.ts"

/**
 * DESIGN §3.8: an unreachable, rate-limited or failing provider (after
 * retries) is 503 naming the provider; anything else it refuses is 500.
 * ProviderFailure messages are already free of keys and stacks.
 */
export const upstreamFailure = (error: ProviderFailure): ServiceUnavailable | InternalServerError =>
  error._tag === "ProviderUnavailable"
    ? new ServiceUnavailable({
      message: `The model provider "${error.provider}" is unavailable right now. Retry later.`,
      details: { provider: error.provider, ...(error.status === undefined ? {} : { status: error.status }) }
    })
    : new InternalServerError({
      message: `The model provider "${error.provider}" refused the request: ${error.message}`,
      details: { error: error.message, provider: error.provider }
    })
