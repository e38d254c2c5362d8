import type { FilePart, ModelMessage, TextPart, ToolResultPart } from "ai"
import { Arbitrary, Schema } from "effect"
import { TokenizerName } from "../../src/domain/TokenizerName.ts"
import { withoutImages, withShortOutputs } from "../../src/prune/stages.ts"
import type { ToolDefinition } from "../../src/prune/tokenCount.ts"
import { preservedTail, type Scenario, staged, tokensOf, unitsOf } from "./units.ts"

/**
 * Generated conversations as model messages with the client message each
 * came from: text, reasoning, multi-step tool calls (an assistant turn is
 * several model messages) whose outputs are short, long, screenshots, data
 * URLs, content with media, errors or approved, steering messages inside a
 * turn, user images, and system messages in between; with budgets placed on
 * the boundaries where pruning changes its mind (a stage's total, a suffix's
 * cost).
 */

const vocabulary = (
  "the candidate role salary Berlin engineer interview schedule offer reply message recruiter team remote " +
  "senior backend frontend python typescript docker kubernetes experience years contract start date notice " +
  "ls cat grep stdout stderr exit code file path /work/src index.ts package.json error timeout retry 200 404 " +
  "你好 工程师 développeur à Lyon über Straße 😀 {\"a\":1} <div> </div> https://example.com/jobs?id=42"
).split(" ")

export const textOf = (seed: number, words: number): string => {
  let state = seed + 1
  const out: Array<string> = []
  for (let i = 0; i < words; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    out.push(vocabulary[state % vocabulary.length]!)
  }
  return out.join(" ")
}

/** The base64 of a 3 kB picture. */
export const png = Buffer.from(Array.from({ length: 3_000 }, (_, i) => (i * 7) % 256)).toString("base64")

const Seed = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000 }))
const Words = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 80 }))
const PartSpec = Schema.Union([
  Schema.Struct({ kind: Schema.Literals(["text", "text", "reasoning", "steer"]), seed: Seed, words: Words }),
  Schema.Struct({
    kind: Schema.Literal("tool"),
    seed: Seed,
    words: Words,
    output: Schema.Literals([
      "text",
      "json",
      "long",
      "image",
      "content",
      "data-url",
      "error",
      "long-error",
      "approved",
      "running"
    ])
  }),
  Schema.Struct({ kind: Schema.Literals(["step", "file"]) })
])
const MessageSpec = Schema.Struct({
  role: Schema.Literals(["user", "assistant", "user", "assistant", "system"]),
  parts: Schema.Array(PartSpec).check(Schema.isMinLength(1), Schema.isMaxLength(6))
})
type PartSpec = typeof PartSpec.Type
type ToolSpec = PartSpec & { readonly kind: "tool" }
type Part = Exclude<ModelMessage["content"], string>[number]
type ToolOutput = ToolResultPart["output"]

/** The output a tool's result is sent with, as the old pipeline made it (a raw value is `json`). */
const outputOf = (spec: ToolSpec): ToolOutput | undefined => {
  const long = textOf(spec.seed + 7, 1_500)
  switch (spec.output) {
    case "text":
      return { type: "text", value: textOf(spec.seed + 1, spec.words) }
    case "json":
    case "approved":
      return { type: "json", value: { stdout: textOf(spec.seed + 2, spec.words), exit_code: 0 } }
    case "long":
      return { type: "json", value: { stdout: long, exit_code: 1 } }
    case "image":
      return {
        type: "json",
        value: {
          type: "content",
          value: [{ type: "text", text: "Screenshot" }, { type: "image-data", data: png, mediaType: "image/png" }]
        }
      }
    case "content":
      return {
        type: "content",
        value: [{ type: "text", text: "Screenshot" }, {
          type: "file",
          mediaType: "image",
          data: { type: "data", data: png }
        }]
      }
    case "data-url":
      return { type: "text", value: `data:image/png;base64,${png}` }
    case "error":
      return { type: "error-text", value: textOf(spec.seed + 3, spec.words) }
    case "long-error":
      return { type: "error-text", value: long }
    case "running":
      return undefined
  }
}

const text = (seed: number, words: number) => ({ type: "text" as const, text: textOf(seed, words) })
const file: FilePart = { type: "file", mediaType: "image/png", data: { type: "data", data: png } }

/**
 * An assistant turn as the AI SDK sends it: per step, an assistant message
 * with its reasoning, texts and calls, then a tool message with the results
 * (and approval answers); a steering message is a user message of its own.
 */
const assistantTurn = (parts: ReadonlyArray<PartSpec>, index: number): Array<ModelMessage> => {
  const messages: Array<ModelMessage> = []
  let content: Array<Part> = []
  let results: Array<Part> = []
  const close = () => {
    if (content.length > 0) messages.push({ role: "assistant", content } as ModelMessage)
    if (results.length > 0) messages.push({ role: "tool", content: results } as ModelMessage)
    content = []
    results = []
  }
  parts.forEach((part, p) => {
    switch (part.kind) {
      case "text":
      case "reasoning":
        return content.push({ type: part.kind, text: textOf(part.seed, part.words) })
      case "file":
        return content.push(file)
      case "step":
        return close()
      case "steer":
        close()
        return messages.push({ role: "user", content: [text(part.seed, part.words)] })
      case "tool": {
        const toolCallId = `call_${index}_${p}`
        const toolName = part.seed % 2 === 0 ? "bash" : "computer"
        content.push({
          type: "tool-call",
          toolCallId,
          toolName,
          input: { command: textOf(part.seed, part.words % 12) }
        })
        if (part.output === "approved") {
          content.push({ type: "tool-approval-request", approvalId: `ok_${toolCallId}`, toolCallId })
          results.push({ type: "tool-approval-response", approvalId: `ok_${toolCallId}`, approved: true })
        }
        const output = outputOf(part)
        if (output !== undefined) results.push({ type: "tool-result", toolCallId, toolName, output })
      }
    }
  })
  close()
  return messages.length > 0 ? messages : [{ role: "assistant", content: [text(index, 1)] }]
}

/** The model messages of one client message. */
const messagesOf = (spec: typeof MessageSpec.Type, index: number): Array<ModelMessage> => {
  const texts = spec.parts.flatMap((part) => "seed" in part ? [text(part.seed, part.words)] : [])
  switch (spec.role) {
    case "system":
      return [{ role: "system", content: texts.map((part) => part.text).join(" ") || "ok" }]
    case "assistant":
      return assistantTurn(spec.parts, index)
    case "user": {
      // A lone text may come as a string (as Chat Completions bodies send it).
      if (spec.parts.length === 1 && texts.length === 1 && index % 2 === 0) {
        return [{ role: "user", content: texts[0]!.text }]
      }
      const content = spec.parts.flatMap((part): Array<FilePart | TextPart> =>
        "seed" in part ? [text(part.seed, part.words)] : part.kind === "file" ? [file] : []
      )
      return [{ role: "user", content: content.length > 0 ? content : [text(index, 1)] }]
    }
  }
}

export const tools: ReadonlyArray<ToolDefinition> = [
  {
    name: "bash",
    description: "Runs a shell command.",
    inputSchema: { type: "object", properties: { command: { type: "string" } } }
  },
  {
    name: "computer",
    description: "Clicks, types and takes screenshots.",
    inputSchema: { type: "object", properties: { action: { type: "string" } } }
  }
]

export const scenarios: Arbitrary.Arbitrary<Scenario> = Arbitrary.all({
  system: Arbitrary.schema(Schema.Struct({ seed: Seed, words: Words })),
  messages: Arbitrary.array(Arbitrary.schema(MessageSpec), { maxLength: 12 }),
  withTools: Arbitrary.schema(Schema.Boolean),
  tokenizer: Arbitrary.schema(TokenizerName),
  preserveRecentMessages: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 4 }))),
  boundary: Arbitrary.schema(Schema.Literals(["suffix", "images", "tool-outputs", "short-suffix"])),
  suffixPercent: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 }))),
  slack: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: -3, maximum: 3 })))
}).pipe(Arbitrary.map((generated): Scenario => {
  const turns = generated.messages.map(messagesOf)
  const base = {
    system: textOf(generated.system.seed, generated.system.words),
    messages: turns.flat(),
    origins: turns.flatMap((turn, index) => turn.map(() => index)),
    tools: generated.withTools ? tools : [],
    tokenizer: generated.tokenizer,
    preserveRecentMessages: generated.preserveRecentMessages,
    targetTokens: 0
  }
  const olderCount = unitsOf(base).filter((unit) => unit.role !== "system").length -
    preservedTail(base, base.preserveRecentMessages).length
  const from = Math.floor(olderCount * generated.suffixPercent / 100)
  const boundary = {
    suffix: () => staged(base, (message) => message, from),
    images: () => staged(base, withoutImages),
    "tool-outputs": () => staged(base, withShortOutputs),
    "short-suffix": () => staged(base, withShortOutputs, from)
  }[generated.boundary]()
  return { ...base, targetTokens: Math.max(0, tokensOf(base, boundary.messages) + generated.slack) }
}))
