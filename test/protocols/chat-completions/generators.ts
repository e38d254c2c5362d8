import { Arbitrary, Schema } from "effect"
import { plainishBodies as plainishOf } from "../../support/plainishBodies.ts"

/**
 * Schemas that generate valid Chat Completions bodies (`Arbitrary.schema`):
 * what OpenAI clients send, written apart from the schemas under test.
 */
const ModelId = Schema.String.check(Schema.isPattern(/^[a-z0-9-]{1,8}\/[A-Za-z0-9.:_-]{1,10}$/))
const Name = Schema.String.check(Schema.isPattern(/^[a-z_]{1,12}$/))

const TextPart = Schema.Struct({ type: Schema.Literal("text"), text: Schema.String })
const ImagePart = Schema.Struct({
  type: Schema.Literal("image_url"),
  image_url: Schema.Struct({
    // Data only: an http(s) URL is fetched through the outbound policy (governance.test.ts).
    url: Schema.Literal("data:image/png;base64,iVBORw0KGgo="),
    detail: Schema.optionalKey(Schema.Literals(["auto", "low", "high"]))
  })
})

const Instructions = Schema.Struct({
  role: Schema.Literals(["system", "developer"]),
  content: Schema.Union([Schema.String, Schema.Array(TextPart)])
})
const User = Schema.Struct({
  role: Schema.Literal("user"),
  content: Schema.Union([Schema.String, Schema.Array(Schema.Union([TextPart, ImagePart]))]),
  name: Schema.optionalKey(Name)
})
const Assistant = Schema.Struct({ role: Schema.Literal("assistant"), content: Schema.String })

// An assistant's calls and a tool message answering each: the shape OpenAI requires.
const CallGroup = Schema.Struct({
  text: Schema.NullOr(Schema.String),
  calls: Schema.Array(Schema.Struct({ name: Name, args: Schema.Record(Name, Schema.Json), result: Schema.String }))
    .check(Schema.isMinLength(1))
})

const Turn = Schema.Union([Instructions, User, Assistant, CallGroup])

const messagesOf = (turns: ReadonlyArray<typeof Turn.Type>): Array<unknown> =>
  turns.flatMap((turn, t): Array<unknown> => {
    if (!("calls" in turn)) return [turn]
    const calls = turn.calls.map((call, c) => ({ ...call, id: `call_${t}_${c}` }))
    return [
      {
        role: "assistant",
        content: turn.text,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.args) }
        }))
      },
      ...calls.map((call) => ({ role: "tool", tool_call_id: call.id, content: call.result }))
    ]
  })

const Options = Schema.Struct({
  model: ModelId,
  stream: Schema.optionalKey(Schema.Boolean),
  temperature: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 2 }))),
  top_p: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
  max_tokens: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))),
  stop: Schema.optionalKey(Schema.Union([Schema.String, Schema.Array(Schema.String)])),
  seed: Schema.optionalKey(Schema.Int),
  reasoning_effort: Schema.optionalKey(Schema.Literals(["minimal", "low", "medium", "high"])),
  tool_choice: Schema.optionalKey(Schema.Literals(["auto", "none", "required"])),
  user: Schema.optionalKey(Schema.String),
  n: Schema.optionalKey(Schema.Literal(1))
})

// OpenAI refuses a conversation without messages; parley, one with nothing but instructions.
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
  messages: Schema.Array(Schema.Struct({
    role: Schema.Literals(["system", "developer", "user", "assistant", "tool"]),
    content: Schema.String
  })),
  stream: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  stream_options: Schema.optionalKey(
    Schema.NullOr(Schema.Struct({ include_usage: Schema.optionalKey(Schema.Boolean) }))
  )
})

/** Bodies of the plain form `{model, messages: [{role, content}], stream?, stream_options?}`, half with one field set to any JSON value. */
export const plainishBodies = plainishOf(PlainBody, [
  "model",
  "messages",
  "stream",
  "stream_options",
  "temperature",
  "n",
  "message.role",
  "message.content",
  "message.name"
])
