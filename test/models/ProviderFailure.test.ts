import { APICallError, InvalidPromptError, UnsupportedFunctionalityError } from "@ai-sdk/provider"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { redact, retryAfterOf, toProviderFailure } from "../../src/models/ProviderFailure.ts"

const apiError = (statusCode: number | undefined, message: string, headers?: Record<string, string>, cause?: unknown) =>
  new APICallError({
    message,
    url: "https://generativelanguage.example.com/v1/models?key=AIzaSyD-secret-key-0123456789",
    requestBodyValues: { messages: [] },
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(headers === undefined ? {} : { responseHeaders: headers }),
    responseBody: "raw body with sk-live-0123456789abcdef",
    cause
  })

describe("toProviderFailure", () => {
  it.effect("a 429 or 5xx is ProviderUnavailable and keeps its status", () =>
    Effect.sync(() => {
      expect(toProviderFailure("openai", apiError(429, "Rate limit reached"))).toMatchObject({
        provider: "openai",
        _tag: "ProviderUnavailable",
        status: 429,
        message: "openai answered HTTP 429: Rate limit reached"
      })
      expect(toProviderFailure("openai", apiError(502, "Bad gateway"))).toMatchObject({
        _tag: "ProviderUnavailable",
        status: 502
      })
    }))

  it.effect("a 4xx is ProviderRejected; its message loses anything that looks like a key", () =>
    Effect.sync(() => {
      const error = toProviderFailure(
        "openai",
        apiError(401, "Incorrect API key provided: sk-proj-AbCdEf0123456789xyz.")
      )
      expect(error).toMatchObject({ _tag: "ProviderRejected", status: 401 })
      assert.strictEqual(error.message, "openai answered HTTP 401: Incorrect API key provided: [redacted].")
      for (const secret of ["sk-", "AIza", "secret-key", "raw body"]) assert.notInclude(error.message, secret)
    }))

  it.effect("an unreachable provider is ProviderUnavailable without a status", () =>
    Effect.sync(() => {
      const refused = Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" })
      expect(toProviderFailure("local", apiError(undefined, "Cannot connect to API", undefined, refused))).toEqual(
        expect.objectContaining({
          _tag: "ProviderUnavailable",
          message: "local could not be reached: Cannot connect to API"
        })
      )
      assert.isUndefined(toProviderFailure("local", new TypeError("fetch failed")).status)
      assert.strictEqual(toProviderFailure("local", new TypeError("fetch failed"))._tag, "ProviderUnavailable")
      assert.strictEqual(toProviderFailure("local", { cause: { code: "ECONNRESET" } })._tag, "ProviderUnavailable")
    }))

  it.effect("anything else is ProviderRejected and says only its message", () =>
    Effect.sync(() => {
      const error = toProviderFailure("anthropic", {
        type: "overloaded_error",
        message: "Overloaded",
        stack: "at secret.ts:1"
      })
      expect(error).toMatchObject({ _tag: "ProviderRejected", message: "anthropic failed: Overloaded" })
      assert.notInclude(error.message, "secret.ts")
      assert.strictEqual(toProviderFailure("x", 42).message, "x failed: unknown error")
    }))

  it.effect("an error the provider sent inside its stream is classified by its own status and retryability", () =>
    Effect.sync(() => {
      // As the AI SDK packages report one (createProviderStreamError): a plain object, not an APICallError.
      const overloaded = {
        message: "The model is overloaded.",
        type: "UNAVAILABLE",
        statusCode: 503,
        isRetryable: true
      }
      expect(toProviderFailure("g", overloaded)).toMatchObject({
        _tag: "ProviderUnavailable",
        status: 503,
        message: "g reported an error in its answer (503): The model is overloaded."
      })
      const refused = {
        message: "Bad key AIzaSyD-0123456789abcdefghijklmnopqrstu",
        isRetryable: false,
        statusCode: 400
      }
      const rejected = toProviderFailure("g", refused)
      expect(rejected).toMatchObject({ _tag: "ProviderRejected", status: 400 })
      assert.notInclude(rejected.message, "AIzaSy")
      expect(toProviderFailure("x", { message: "went wrong", isRetryable: false })).toMatchObject({
        _tag: "ProviderRejected",
        message: "x reported an error in its answer: went wrong"
      })
    }))

  it.effect("content the provider's client cannot put in a request is ProviderCannotTake (the client's mistake)", () =>
    Effect.sync(() => {
      const unsupported = new UnsupportedFunctionalityError({ functionality: "file part media type x/y" })
      expect(toProviderFailure("local", unsupported)).toMatchObject({
        _tag: "ProviderCannotTake",
        provider: "local",
        message: "'file part media type x/y' functionality not supported."
      })
      const invalid = new InvalidPromptError({ prompt: [], message: "tool-call messages" })
      assert.strictEqual(toProviderFailure("local", invalid)._tag, "ProviderCannotTake")
    }))
})

describe("redact", () => {
  it.effect("removes bearer tokens and long opaque strings, and caps the length", () =>
    Effect.sync(() => {
      assert.strictEqual(redact("header Bearer abc.def.ghi was rejected"), "header [redacted] was rejected")
      assert.strictEqual(redact("token eyJhbGciOiJIUzI1NiJ9eyJzdWIiOiIxMjM0NTY3ODkwIn0 bad"), "token [redacted] bad")
      assert.strictEqual(
        redact("The access key ID AKIAIOSFODNN7EXAMPLE does not exist in our records."),
        "The access key ID [redacted] does not exist in our records."
      )
      assert.strictEqual(redact("plain words stay"), "plain words stay")
      assert.isAtMost(redact("word ".repeat(200)).length, 301)
    }))
})

describe("retryAfterOf", () => {
  it.effect("reads the delay a failed call's response asks for", () =>
    Effect.sync(() => {
      assert.strictEqual(retryAfterOf(apiError(429, "x", { "retry-after-ms": "250", "retry-after": "9" })), 250)
      assert.strictEqual(retryAfterOf(apiError(429, "x", { "retry-after": "2" })), 2000)
      const inFiveSeconds = new Date(Date.now() + 5000).toUTCString()
      const fromDate = retryAfterOf(apiError(429, "x", { "retry-after": inFiveSeconds }))
      assert.isTrue(fromDate !== undefined && fromDate > 3000 && fromDate <= 5000)
      assert.isUndefined(retryAfterOf(apiError(429, "x")))
      assert.isUndefined(retryAfterOf(new Error("x")))
    }))
})
