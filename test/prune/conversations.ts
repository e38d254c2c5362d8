import type { UIMessage } from "ai"
import { Arbitrary, Schema } from "effect"
import { TokenizerName } from "../../src/domain/TokenizerName.ts"
import { withoutImages, withShortOutputs } from "../../src/prune/stages.ts"
import { counterFor, type ToolDefinition } from "../../src/prune/tokenCount.ts"

/**
 * Generated conversations: text, reasoning, multi-step tool calls whose
 * outputs are short, long, screenshots, data URLs or errors, user images,
 * and system messages in between; with budgets placed on the boundaries
 * where pruning changes its mind (a stage's total, a suffix's cost).
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
  Schema.Struct({ kind: Schema.Literals(["text", "text", "reasoning"]), seed: Seed, words: Words }),
  Schema.Struct({
    kind: Schema.Literal("tool"),
    seed: Seed,
    words: Words,
    output: Schema.Literals(["text", "json", "long", "image", "data-url", "error", "long-error", "running"])
  }),
  Schema.Struct({ kind: Schema.Literals(["step", "file"]) })
])
const MessageSpec = Schema.Struct({
  role: Schema.Literals(["user", "assistant", "user", "assistant", "system"]),
  parts: Schema.Array(PartSpec).check(Schema.isMinLength(1), Schema.isMaxLength(6))
})
type PartSpec = typeof PartSpec.Type
type Part = UIMessage["parts"][number]

const toolPart = (spec: PartSpec & { readonly kind: "tool" }, id: string): Part => {
  const input = { command: textOf(spec.seed, spec.words % 12) }
  const call = {
    type: "dynamic-tool",
    toolName: spec.seed % 2 === 0 ? "bash" : "computer",
    toolCallId: id,
    input
  } as const
  const long = textOf(spec.seed + 7, 1_500)
  switch (spec.output) {
    case "text":
      return { ...call, state: "output-available", output: textOf(spec.seed + 1, spec.words) }
    case "json":
      return { ...call, state: "output-available", output: { stdout: textOf(spec.seed + 2, spec.words), exit_code: 0 } }
    case "long":
      return { ...call, state: "output-available", output: { stdout: long, exit_code: 1 } }
    case "image":
      return {
        ...call,
        state: "output-available",
        output: {
          type: "content",
          value: [{ type: "text", text: "Screenshot" }, { type: "image-data", data: png, mediaType: "image/png" }]
        }
      }
    case "data-url":
      return { ...call, state: "output-available", output: `data:image/png;base64,${png}` }
    case "error":
      return { ...call, state: "output-error", errorText: textOf(spec.seed + 3, spec.words) }
    case "long-error":
      return { ...call, state: "output-error", errorText: long }
    case "running":
      return { ...call, state: "input-available" }
  }
}

const messageOf = (spec: typeof MessageSpec.Type, index: number): UIMessage => {
  const parts = spec.parts.flatMap((part, p): Array<Part> => {
    const text = (type: "text" | "reasoning", seed: number, words: number): Part => ({
      type,
      text: textOf(seed, words)
    })
    if (spec.role === "system") return "seed" in part ? [text("text", part.seed, part.words)] : []
    switch (part.kind) {
      case "text":
      case "reasoning":
        return [text(spec.role === "user" ? "text" : part.kind, part.seed, part.words)]
      case "tool":
        return spec.role === "user" ? [text("text", part.seed, part.words)] : [toolPart(part, `call_${index}_${p}`)]
      case "step":
        return spec.role === "user" ? [] : [{ type: "step-start" }]
      case "file":
        return [{ type: "file", mediaType: "image/png", url: `data:image/png;base64,${png}` }]
    }
  })
  return { id: `m${index}`, role: spec.role, parts: parts.length > 0 ? parts : [{ type: "text", text: "ok" }] }
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

/** The messages pruning must keep: the last N (at least one) non-system ones, back to a user message. */
export const preservedTail = (messages: ReadonlyArray<UIMessage>, preserve: number): ReadonlyArray<UIMessage> => {
  const history = messages.filter((message) => message.role !== "system")
  let start = Math.max(0, history.length - Math.max(1, preserve))
  while (start > 0 && history[start]!.role !== "user") start--
  return history.slice(start)
}

export interface Scenario {
  readonly system: string
  readonly messages: ReadonlyArray<UIMessage>
  readonly tools: ReadonlyArray<ToolDefinition>
  readonly tokenizer: TokenizerName
  readonly preserveRecentMessages: number
  readonly targetTokens: number
}

/** Tokens of the system prompt, tool definitions and these messages. */
export const tokensOf = (scenario: Scenario, messages: ReadonlyArray<UIMessage>): number => {
  const counter = counterFor(scenario.tokenizer)
  return messages.reduce(
    (total, message) => total + counter.message(message),
    counter.system(scenario.system) + counter.tools(scenario.tools)
  )
}

/** The input after a stage (applied to the messages older than the tail), optionally from the `from`-th history message on. */
export const staged = (scenario: Scenario, stage: (message: UIMessage) => UIMessage, from = 0): Array<UIMessage> => {
  const tail = new Set(preservedTail(scenario.messages, scenario.preserveRecentMessages))
  let index = 0
  return scenario.messages.flatMap((message) => {
    if (message.role === "system" || tail.has(message)) return [message]
    return index++ >= from ? [stage(message)] : []
  })
}

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
  const base = {
    system: textOf(generated.system.seed, generated.system.words),
    messages: generated.messages.map(messageOf),
    tools: generated.withTools ? tools : [],
    tokenizer: generated.tokenizer,
    preserveRecentMessages: generated.preserveRecentMessages,
    targetTokens: 0
  }
  const olderCount = base.messages.filter((m) => m.role !== "system").length -
    preservedTail(base.messages, base.preserveRecentMessages).length
  const from = Math.floor(olderCount * generated.suffixPercent / 100)
  const boundary = {
    suffix: () => staged(base, (message) => message, from),
    images: () => staged(base, withoutImages),
    "tool-outputs": () => staged(base, withShortOutputs),
    "short-suffix": () => staged(base, withShortOutputs, from)
  }[generated.boundary]()
  return { ...base, targetTokens: Math.max(0, tokensOf(base, boundary) + generated.slack) }
}))
