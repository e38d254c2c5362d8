import fc from "fast-check"
import { bodyFields } from "../../domain/generators.ts"
import type { Expected } from "./answerCheck.ts"
import { chatPlacements, echoCallWith } from "./chatPlacements.ts"
import { CORRELATION_IDS, hostileTextFc } from "./hostileText.ts"

/**
 * Generators of POST /api/v1/chat requests for fuzzing the real gateway
 * (issue 11 item 2, issue 32 part 3). Each case says what the gateway must
 * answer (`expected`): `ok`, a request it runs; `refused`, one it refuses
 * with a documented status; `either`, one that may be valid. The gateway
 * they are meant for (`fuzzGateway.ts`): models `test/m1` and `test/m2`, a
 * tool `echo`, an MCP server `down` that cannot list its tools, a key
 * allowed `test/*`, `echo` and `down__*`, and a small body limit
 * (FUZZ_BODY_LIMIT) so that some cases are too large.
 */
export interface FuzzCase {
  readonly body: string
  /** The Authorization header; a case with a bad one expects 401. */
  readonly authorization: "valid" | "missing" | "basic" | "unknown key"
  readonly expected: Expected
  readonly correlationId: string
  /** Names `X-Tools-Skipped` must list when the answer is 200. */
  readonly skipped?: ReadonlyArray<string> | undefined
}

export const FUZZ_BODY_LIMIT = 64 * 1024

/** The fields AI SDK chat transports add to a body; the gateway accepts and ignores them (docs/DESIGN.md §3.16). */
const transportFields = fc.record({
  id: fc.string(),
  trigger: fc.constantFrom("submit-message", "regenerate-message"),
  messageId: fc.option(fc.string(), { nil: undefined }),
  metadata: fc.jsonValue({ maxDepth: 3 })
}, { requiredKeys: [] })

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

const text = fc.string({ maxLength: 40 })
const textPart = fc.record({ type: fc.constant("text"), text })
const imagePart = fc.constant({ type: "file", mediaType: "image/png", url: PNG })
const finishedToolPart = fc.record({
  type: fc.constantFrom("dynamic-tool", "tool-echo"),
  toolCallId: fc.string({ minLength: 1, maxLength: 8 }),
  state: fc.constant("output-available"),
  input: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
  output: fc.jsonValue({ maxDepth: 3 })
}).map((part) => part.type === "dynamic-tool" ? { ...part, toolName: "echo" } : part)

const simpleMessage = fc.record({ role: fc.constantFrom("user", "assistant", "system"), content: text })
const userMessage = fc.record({
  id: fc.string({ minLength: 1, maxLength: 8 }),
  role: fc.constant("user"),
  parts: fc.array(fc.oneof(textPart, imagePart), { minLength: 1, maxLength: 3 })
})
const assistantMessage = fc.record({
  role: fc.constant("assistant"),
  parts: fc.array(fc.oneof(textPart, finishedToolPart, fc.constant({ type: "step-start" })), {
    minLength: 1,
    maxLength: 3
  })
})

/** A conversation that ends with a user message, as a client sends one. */
const conversation = fc.tuple(
  fc.array(fc.oneof(simpleMessage, userMessage, assistantMessage), { maxLength: 4 }),
  fc.oneof(userMessage, simpleMessage.map((message) => ({ ...message, role: "user" })))
).map(([history, last]) => [...history, last])

/** A body the gateway must run (or report on, with validateOnly): 200. */
export const validBody = fc.record({
  model: fc.constantFrom("test/m1", "test/m2"),
  messages: conversation,
  stream: fc.boolean(),
  prune: fc.boolean(),
  pruneOptions: fc.record({
    maxOutputTokens: fc.integer({ min: 0, max: 20_000 }),
    targetTokens: fc.integer({ min: 0, max: 100_000 }),
    preserveRecentMessages: fc.integer({ min: 0, max: 10 })
  }, { requiredKeys: [] }),
  systemPrompt: text,
  allowedTools: fc.constantFrom([], ["echo"]),
  contextStrategy: fc.constantFrom("error", "skip", "report"),
  validateOnly: fc.boolean()
}, { requiredKeys: ["model", "messages"] }).chain((body) => transportFields.map((extra) => ({ ...extra, ...body })))

/** What a hostile or careless client puts in a part. */
const badUrl = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    "file:///etc/passwd",
    "ftp://example.com/a.png",
    "javascript:alert(1)",
    "data:",
    "data:image/png",
    "data:image/png;base64",
    "data:;base64,AAAA",
    "data:text/plain,hello",
    "data:image/png;base64,%%%",
    "http://",
    "//example.com/a.png",
    "/etc/passwd",
    "gopher://127.0.0.1:6379/_INFO"
  )
)
const toolStates = [
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
  "no-such-state"
]
const anyPart = fc.oneof(
  fc.record({ type: fc.constantFrom("file", "reasoning-file"), mediaType: fc.string({ maxLength: 12 }), url: badUrl }),
  fc.record({
    type: fc.constantFrom("file", "reasoning-file"),
    mediaType: fc.constantFrom("image/png", "application/pdf", "audio/wav", "text/plain", "x/y", ""),
    url: fc.constantFrom(PNG, "data:x/y;base64,AAAA", "data:application/pdf;base64,JVBERi0=")
  }),
  fc.record({
    type: fc.oneof(fc.constantFrom("dynamic-tool", "tool-echo", "tool-"), fc.string({ maxLength: 12 })),
    toolName: fc.oneof(fc.constant("echo"), fc.jsonValue({ maxDepth: 1 })),
    toolCallId: fc.oneof(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
    state: fc.constantFrom(...toolStates),
    input: fc.jsonValue({ maxDepth: 3 }),
    output: fc.jsonValue({ maxDepth: 3 }),
    errorText: fc.jsonValue({ maxDepth: 1 }),
    approval: fc.oneof(fc.record({ id: fc.string(), approved: fc.boolean() }), fc.jsonValue({ maxDepth: 1 })),
    providerExecuted: fc.boolean()
  }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constantFrom("steering-message", "source-url", "source-document", "custom", "data-x", "step-start"),
    id: fc.string(),
    parts: fc.array(fc.record({ type: fc.constantFrom("text", "file"), text, mediaType: text, url: badUrl })),
    sourceId: fc.jsonValue({ maxDepth: 1 }),
    url: badUrl,
    title: fc.jsonValue({ maxDepth: 1 }),
    kind: fc.jsonValue({ maxDepth: 1 }),
    data: fc.jsonValue({ maxDepth: 2 })
  }, { requiredKeys: ["type"] }),
  fc.dictionary(fc.constantFrom("type", "text", "url", "state", "providerMetadata"), fc.jsonValue({ maxDepth: 2 })),
  fc.jsonValue({ maxDepth: 2 })
)
const hostileMessage = fc.record({
  id: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
  role: fc.oneof(fc.constantFrom("user", "assistant", "system"), fc.jsonValue({ maxDepth: 1 })),
  content: fc.oneof(text, fc.jsonValue({ maxDepth: 1 })),
  parts: fc.oneof(fc.array(anyPart, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
  metadata: fc.jsonValue({ maxDepth: 3 }),
  createdAt: fc.string()
}, { requiredKeys: ["role"] })

/** Known fields, a few near misses and arbitrary names: item 9's unknown fields (docs/DESIGN.md §3.16). */
const fieldName = fc.oneof(
  fc.constantFrom(
    ...bodyFields,
    "strem",
    "mesages",
    "validate_only",
    "__proto__",
    "constructor"
  ),
  fc.string({ maxLength: 10 })
)

const nested = (depth: number): unknown => {
  let value: unknown = 1
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value }
  return value
}

/** A part that is almost right: one field of a valid part made wrong. */
const nearlyValidPart = fc.oneof(
  badUrl.map((url) => ({ type: "file", mediaType: "image/png", url })),
  badUrl.map((url) => ({ type: "reasoning-file", mediaType: "image/png", url })),
  fc.constantFrom("x/y", "", "text/plain", "application/pdf", "audio/wav", "video/mp4").map((mediaType) => ({
    type: "file",
    mediaType,
    url: `data:${mediaType === "" ? "x/y" : mediaType};base64,AAAA`
  })),
  fc.constantFrom(...toolStates).map((state) => ({
    type: "dynamic-tool",
    toolName: "echo",
    toolCallId: "c1",
    state,
    input: { text: "hi" }
  })),
  fc.string({ maxLength: 12 }).map((type) => ({ type, text: "x" }))
)

/** A value nested `depth` levels placed where the gateway keeps or repeats it. */
const deepValue = fc.tuple(fc.nat(120), fc.constantFrom("metadata", "providerMetadata", "input", "output")).map((
  [depth, where]
) => {
  const value = nested(depth)
  switch (where) {
    case "metadata":
      return { role: "user", content: "x", metadata: value }
    case "providerMetadata":
      return { role: "user", parts: [{ type: "text", text: "x", providerMetadata: { test: value } }] }
    default:
      return echoCallWith(where, value)
  }
})

/** A valid body with one fault: what a careless client sends more often than garbage. */
const oneFault = fc.oneof(
  fc.tuple(validBody, fc.nat(), nearlyValidPart).map(([body, at, part]) => {
    const messages: Array<object> = [...body.messages]
    const index = at % messages.length
    const message = body.messages[index]!
    messages[index] = { role: message.role, parts: [...("parts" in message ? message.parts : []), part] }
    return { ...body, messages }
  }),
  fc.tuple(validBody, deepValue).map(([body, message]) => ({
    ...body,
    messages: [message, ...body.messages]
  })),
  fc.tuple(validBody, fc.constantFrom("context", "toolContext", "pruneOptions", "metadata"), fc.nat(120)).map((
    [body, field, depth]
  ) => ({ ...body, [field]: field === "toolContext" ? { echo: nested(depth) } : nested(depth) })),
  fc.tuple(validBody, fieldName, fc.jsonValue({ maxDepth: 3 })).map(([body, field, value]) => ({
    ...body,
    [field]: value
  }))
)

/** A valid body made wrong in many places: hostile messages, or prune options of any kind. */
const garbledBody = fc.oneof(
  fc.tuple(validBody, fc.array(hostileMessage, { minLength: 1, maxLength: 3 }), fc.nat(3)).map((
    [body, hostile, at]
  ) => ({ ...body, messages: [...body.messages.slice(0, at), ...hostile] })),
  fc.tuple(
    validBody,
    fc.record({
      maxOutputTokens: fc.jsonValue({ maxDepth: 1 }),
      targetTokens: fc.oneof(fc.integer(), fc.constant(1e300)),
      preserveRecentMessages: fc.integer(),
      maxTokens: fc.integer()
    }, { requiredKeys: [] })
  ).map(([body, pruneOptions]) => ({ ...body, prune: true, pruneOptions }))
)

/** Text that is not the JSON of a request: truncated, not JSON, or a JSON value that is not an object. */
const malformedText = fc.oneof(
  fc.tuple(validBody, fc.nat()).map(([body, cut]) => {
    const json = JSON.stringify(body)
    return json.slice(0, cut % json.length)
  }),
  fc.string({ maxLength: 40 }),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  fc.nat({ max: 100_000 }).map((depth) => `{"model":"test/m1","messages":${"[".repeat(depth)}${"]".repeat(depth)}}`)
)

const hostileCase = fc.tuple(
  validBody,
  fc.nat(chatPlacements.length - 1),
  fc.boolean(),
  hostileTextFc(false),
  hostileTextFc(true)
)
  .map(([body, at, lone, wellFormedText, loneText]) => {
    const placement = chatPlacements[at]!
    const text = lone ? loneText : wellFormedText
    const expected = lone ? placement.lone : placement.wellFormed
    // Answered, not reported on: a validation report is 200 whatever it finds.
    const answered = { ...body, validateOnly: false, contextStrategy: "error" }
    return {
      body: JSON.stringify(placement.place(answered, text)),
      expected,
      skipped: expected === "ok" ? placement.skipped?.(text) : undefined
    }
  })

/** A body over FUZZ_BODY_LIMIT: 413. */
const oversized = validBody.map((body) => ({
  ...body,
  messages: [{ role: "user", content: "x".repeat(FUZZ_BODY_LIMIT) }]
}))

const authorization = fc.oneof(
  { weight: 19, arbitrary: fc.constant("valid" as const) },
  { weight: 1, arbitrary: fc.constantFrom("missing" as const, "basic" as const, "unknown key" as const) }
)

/**
 * Every kind of case, the valid ones about a quarter: a valid body, one with
 * one fault or many (which may still be valid), text that is no body, a body
 * too large, hostile text where a header, a log line, a name or an id is made.
 */
export const chatCases: fc.Arbitrary<FuzzCase> = fc.tuple(
  fc.oneof(
    { weight: 6, arbitrary: validBody.map((body) => ({ body: JSON.stringify(body), expected: "ok" as const })) },
    { weight: 6, arbitrary: oneFault.map((body) => ({ body: JSON.stringify(body), expected: "either" as const })) },
    { weight: 3, arbitrary: garbledBody.map((body) => ({ body: JSON.stringify(body), expected: "either" as const })) },
    { weight: 3, arbitrary: malformedText.map((body) => ({ body, expected: "refused" as const })) },
    { weight: 1, arbitrary: oversized.map((body) => ({ body: JSON.stringify(body), expected: "refused" as const })) },
    { weight: 6, arbitrary: hostileCase }
  ),
  authorization,
  fc.constantFrom(...CORRELATION_IDS)
).map(([{ body, expected, ...rest }, authorization, correlationId]) => ({
  body,
  authorization,
  correlationId,
  ...rest,
  expected: authorization === "valid" ? expected : "refused"
}))
