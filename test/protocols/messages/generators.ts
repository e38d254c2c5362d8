import { Arbitrary, Schema } from "effect"
import { plainishBodies as plainishOf } from "../../support/plainishBodies.ts"

/**
 * Schemas that generate valid Messages bodies (`Arbitrary.schema`): what
 * Anthropic's clients send, written apart from the schemas under test.
 */
const ModelId = Schema.String.check(Schema.isPattern(/^[a-z0-9-]{1,8}\/[A-Za-z0-9.:_-]{1,10}$/))
const Name = Schema.String.check(Schema.isPattern(/^[a-z_]{1,12}$/))

const TextBlock = Schema.Struct({ type: Schema.Literal("text"), text: Schema.String })
const ImageBlock = Schema.Struct({
  type: Schema.Literal("image"),
  // Data only: a URL is fetched through the outbound policy (governance.test.ts).
  source: Schema.Struct({
    type: Schema.Literal("base64"),
    media_type: Schema.Literal("image/png"),
    data: Schema.Literal("iVBORw0KGgo=")
  })
})
const Thinking = Schema.Struct({ type: Schema.Literal("thinking"), thinking: Schema.String, signature: Schema.String })

const User = Schema.Struct({
  role: Schema.Literal("user"),
  content: Schema.Union([Schema.String, Schema.Array(Schema.Union([TextBlock, ImageBlock]))])
})
const Assistant = Schema.Struct({
  role: Schema.Literal("assistant"),
  content: Schema.Union([Schema.String, Schema.Array(Schema.Union([TextBlock, Thinking]))])
})

// An assistant's tool_use blocks and the user message answering each: the shape Anthropic requires.
const CallGroup = Schema.Struct({
  text: Schema.optionalKey(Schema.String),
  calls: Schema.Array(Schema.Struct({
    name: Name,
    input: Schema.Record(Name, Schema.Json),
    result: Schema.String,
    isError: Schema.Boolean
  })).check(Schema.isMinLength(1))
})

const Turn = Schema.Union([User, Assistant, CallGroup])

const messagesOf = (turns: ReadonlyArray<typeof Turn.Type>): Array<unknown> =>
  turns.flatMap((turn, t): Array<unknown> => {
    if (!("calls" in turn)) return [turn]
    const calls = turn.calls.map((call, c) => ({ ...call, id: `toolu_${t}_${c}` }))
    return [
      {
        role: "assistant",
        content: [
          ...(turn.text === undefined ? [] : [{ type: "text", text: turn.text }]),
          ...calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.input }))
        ]
      },
      {
        role: "user",
        content: calls.map((call) => ({
          type: "tool_result",
          tool_use_id: call.id,
          content: call.result,
          ...(call.isError ? { is_error: true } : {})
        }))
      }
    ]
  })

const Options = Schema.Struct({
  model: ModelId,
  max_tokens: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 })),
  system: Schema.optionalKey(Schema.Union([Schema.String, Schema.Array(TextBlock)])),
  stream: Schema.optionalKey(Schema.Boolean),
  temperature: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
  top_p: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
  top_k: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 500 }))),
  stop_sequences: Schema.optionalKey(Schema.Array(Schema.String)),
  thinking: Schema.optionalKey(Schema.Union([
    Schema.Struct({
      type: Schema.Literal("enabled"),
      budget_tokens: Schema.Int.check(Schema.isBetween({ minimum: 1024, maximum: 64_000 }))
    }),
    Schema.Struct({ type: Schema.Literals(["adaptive", "disabled"]) })
  ])),
  tool_choice: Schema.optionalKey(Schema.Struct({ type: Schema.Literals(["auto", "any", "none"]) })),
  metadata: Schema.optionalKey(Schema.Struct({ user_id: Schema.String })),
  service_tier: Schema.optionalKey(Schema.Literal("auto")),
  // parley's own tools, the one hosted server every gateway has (a name twice is refused).
  mcp_servers: Schema.optionalKey(Schema.Tuple([Schema.Struct({
    type: Schema.Literal("url"),
    name: Schema.Literal("parley"),
    tool_configuration: Schema.optionalKey(Schema.Struct({ enabled: Schema.optionalKey(Schema.Boolean) }))
  })]))
})

// Anthropic refuses a conversation that does not end with a user turn's content; so do these bodies.
export const validBodies = Arbitrary.all({
  options: Arbitrary.schema(Options),
  turns: Arbitrary.schema(Schema.Array(Turn)),
  last: Arbitrary.schema(User)
}).pipe(
  Arbitrary.map(({ last, options, turns }) =>
    JSON.parse(JSON.stringify({ ...options, messages: [...messagesOf(turns), last] }))
  )
)

const PlainBody = Schema.Struct({
  model: ModelId,
  max_tokens: Schema.Int,
  messages: Schema.Array(Schema.Struct({
    role: Schema.Literals(["user", "assistant", "system", "tool"]),
    content: Schema.String
  })),
  stream: Schema.optionalKey(Schema.Boolean),
  system: Schema.optionalKey(Schema.String)
})

const plainMutations = [
  "model",
  "max_tokens",
  "messages",
  "stream",
  "system",
  "temperature",
  "metadata",
  "container",
  "message.role",
  "message.content",
  "message.cache_control"
] as const

/** Bodies of the plain form `{model, max_tokens, messages: [{role, content}], stream?, system?}`, half with one field set to any JSON value. */
export const plainishBodies = plainishOf(PlainBody, plainMutations)
