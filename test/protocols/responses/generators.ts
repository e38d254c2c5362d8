import { Arbitrary, Schema } from "effect"
import { plainishBodies as plainishOf } from "../../support/plainishBodies.ts"

/**
 * Schemas that generate valid Responses bodies (`Arbitrary.schema`): what
 * OpenAI's clients and Codex send, written apart from the schemas under test.
 */
const ModelId = Schema.String.check(Schema.isPattern(/^[a-z0-9-]{1,8}\/[A-Za-z0-9.:_-]{1,10}$/))
const Name = Schema.String.check(Schema.isPattern(/^[a-z_]{1,12}$/))

const InputText = Schema.Struct({ type: Schema.Literal("input_text"), text: Schema.String })
// Data only: a URL is fetched through the outbound policy (governance.test.ts).
const InputImage = Schema.Struct({
  type: Schema.Literal("input_image"),
  image_url: Schema.Literal("data:image/png;base64,iVBORw0KGgo="),
  detail: Schema.Literals(["auto", "low", "high"])
})
const OutputText = Schema.Struct({
  type: Schema.Literal("output_text"),
  text: Schema.String,
  annotations: Schema.Tuple([])
})

const User = Schema.Struct({
  type: Schema.optionalKey(Schema.Literal("message")),
  role: Schema.Literal("user"),
  content: Schema.Union([Schema.String, Schema.Array(Schema.Union([InputText, InputImage]))])
})
const Developer = Schema.Struct({
  type: Schema.Literal("message"),
  role: Schema.Literals(["developer", "system"]),
  content: Schema.Union([Schema.String, Schema.Array(InputText)])
})
const Assistant = Schema.Struct({
  type: Schema.Literal("message"),
  role: Schema.Literal("assistant"),
  content: Schema.Array(OutputText)
})
const Reasoning = Schema.Struct({
  type: Schema.Literal("reasoning"),
  id: Name,
  summary: Schema.Array(Schema.Struct({ type: Schema.Literal("summary_text"), text: Schema.String })),
  encrypted_content: Schema.NullOr(Schema.String)
})

// A turn's function calls and the outputs answering each: the shape OpenAI requires.
const CallGroup = Schema.Struct({
  calls: Schema.Array(Schema.Struct({
    name: Name,
    input: Schema.Record(Name, Schema.Json),
    output: Schema.String
  })).check(Schema.isMinLength(1))
})

const Item = Schema.Union([User, Developer, Assistant, Reasoning, CallGroup])

const itemsOf = (items: ReadonlyArray<typeof Item.Type>): Array<unknown> =>
  items.flatMap((item, i): Array<unknown> => {
    if (!("calls" in item)) return [item]
    const calls = item.calls.map((call, c) => ({ ...call, id: `call_${i}_${c}` }))
    return [
      ...calls.map((call) => ({
        type: "function_call",
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.input)
      })),
      ...calls.map((call) => ({ type: "function_call_output", call_id: call.id, output: call.output }))
    ]
  })

const FunctionTool = Schema.Struct({
  type: Schema.Literal("function"),
  name: Name,
  parameters: Schema.Struct({ type: Schema.Literal("object") }),
  strict: Schema.Boolean
})
const HostedTool = Schema.Struct({ type: Schema.Literals(["web_search", "web_search_preview", "file_search"]) })
// parley's own tools as a hosted MCP tool: a label every key resolves (docs/DESIGN.md §14).
const ParleyMcpTool = Schema.Struct({
  type: Schema.Literal("mcp"),
  server_label: Schema.Literal("parley"),
  require_approval: Schema.optionalKey(Schema.Literals(["always", "never"]))
})

// A label or a function's name given twice is a 400: a valid body asks for parley's tools at most once, and names
// each of its functions once.
type AnyTool = { readonly type: string; readonly name?: string }
const onceKey = (tool: AnyTool) =>
  tool.type === "mcp" ? "mcp" : tool.type === "function" ? `function ${tool.name}` : undefined
const oneLabelEach = <T extends AnyTool>(tools: ReadonlyArray<T> | undefined) =>
  tools?.filter((tool, index) => {
    const key = onceKey(tool)
    return key === undefined || tools.findIndex((each) => onceKey(each) === key) === index
  })

const Options = Schema.Struct({
  model: ModelId,
  instructions: Schema.optionalKey(Schema.String),
  stream: Schema.optionalKey(Schema.Boolean),
  tools: Schema.optionalKey(Schema.Array(Schema.Union([FunctionTool, HostedTool, ParleyMcpTool]))),
  tool_choice: Schema.optionalKey(Schema.Literals(["auto", "none", "required"])),
  parallel_tool_calls: Schema.optionalKey(Schema.Boolean),
  temperature: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 2 }))),
  top_p: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
  presence_penalty: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: -2, maximum: 2 }))),
  frequency_penalty: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: -2, maximum: 2 }))),
  max_output_tokens: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))),
  reasoning: Schema.optionalKey(Schema.Struct({
    effort: Schema.Literals(["minimal", "low", "medium", "high"]),
    summary: Schema.Literals(["auto", "concise", "detailed"])
  })),
  text: Schema.optionalKey(Schema.Struct({
    format: Schema.Union([
      Schema.Struct({ type: Schema.Literals(["text", "json_object"]) }),
      Schema.Struct({
        type: Schema.Literal("json_schema"),
        name: Name,
        schema: Schema.Struct({ type: Schema.Literal("object") })
      })
    ])
  })),
  metadata: Schema.optionalKey(Schema.Record(Name, Schema.String)),
  include: Schema.optionalKey(Schema.Array(Schema.Literal("reasoning.encrypted_content"))),
  truncation: Schema.optionalKey(Schema.Literals(["auto", "disabled"])),
  store: Schema.optionalKey(Schema.Boolean),
  prompt_cache_key: Schema.optionalKey(Schema.String),
  safety_identifier: Schema.optionalKey(Schema.String),
  user: Schema.optionalKey(Schema.String),
  service_tier: Schema.optionalKey(Schema.Literal("auto"))
})

// A conversation ends with the user's turn; the input as one string is as valid.
export const validBodies = Arbitrary.all({
  options: Arbitrary.schema(Options),
  items: Arbitrary.schema(Schema.Array(Item)),
  last: Arbitrary.schema(User),
  text: Arbitrary.schema(Schema.optionalKey(Schema.String))
}).pipe(
  Arbitrary.map(({ items, last, options, text }) =>
    JSON.parse(
      JSON.stringify({ ...options, tools: oneLabelEach(options.tools), input: text ?? [...itemsOf(items), last] })
    )
  )
)

const PlainBody = Schema.Struct({
  model: ModelId,
  input: Schema.String,
  instructions: Schema.optionalKey(Schema.NullOr(Schema.String)),
  stream: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  store: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
})

const plainMutations = [
  "model",
  "input",
  "instructions",
  "stream",
  "store",
  "background",
  "temperature",
  "user"
] as const

/** Bodies of the plain form `{model, input: string, instructions?, stream?, store?}`, half with one field set to any JSON value. */
export const plainishBodies = plainishOf(PlainBody, plainMutations)
