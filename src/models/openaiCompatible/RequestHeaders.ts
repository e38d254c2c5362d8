import { VERSION as PROVIDER_VERSION } from "@ai-sdk/openai-compatible"
import {
  combineHeaders,
  getRuntimeEnvironmentUserAgent,
  VERSION as UTILS_VERSION,
  withUserAgentSuffix
} from "@ai-sdk/provider-utils"

/**
 * The request headers the AI SDK sends for this provider, so an upstream
 * sees no difference: the key as a Bearer token, JSON content, and the
 * SDK's user agent (provider, provider-utils and runtime versions), with a
 * call's own headers merged in between. Built once for calls without
 * headers of their own.
 */
export class RequestHeaders {
  private readonly provider: Record<string, string>
  private readonly plain: Record<string, string>

  constructor(apiKey: string | undefined) {
    this.provider = withUserAgentSuffix(
      apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
      `ai-sdk-openai-compatible/${PROVIDER_VERSION}`
    )
    this.plain = this.merge(undefined)
  }

  /** The headers for a call with `callHeaders` and this JSON body. */
  for(callHeaders: Record<string, string | undefined> | undefined, json: string): Record<string, string> {
    const headers = callHeaders === undefined ? this.plain : this.merge(callHeaders)
    return { ...headers, "content-length": String(Buffer.byteLength(json)) }
  }

  private merge(callHeaders: Record<string, string | undefined> | undefined): Record<string, string> {
    return withUserAgentSuffix(
      { "Content-Type": "application/json", ...combineHeaders(this.provider, callHeaders) },
      `ai-sdk-provider-utils/${UTILS_VERSION}`,
      getRuntimeEnvironmentUserAgent()
    )
  }
}
