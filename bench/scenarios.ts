import type { Reply } from "../src/demo/upstream/types.ts"

/**
 * What the bench asks and how the scripted upstream answers. The upstream
 * runs in its own process, so each scenario is a model id it answers by.
 */
export const PROVIDER = "bench"
export const TOOL_NAME = "bench_echo"
/** A `type: "route"` provider whose models are routes of one target each: `routed/text` → `bench/text` (issue 22). */
export const ROUTE_PROVIDER = "routed"

/** Twenty words, sent as twenty text deltas. */
const ANSWER =
  "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
const CHUNKS = 20

export interface SlowStream {
  readonly chunks: number
  readonly chunkDelayMs: number
}

/** The upstream's answer to one chat request, chosen by model (and, for the loop, by how many tool results came back). */
export const replyFor = (slow: SlowStream) => (body: any): Reply => {
  switch (body?.model) {
    case "tools": {
      const results = Array.isArray(body.messages) ? body.messages.filter((m: any) => m?.role === "tool").length : 0
      return results < 2
        ? { type: "tool-calls", calls: [{ name: TOOL_NAME, arguments: { text: `step ${results + 1}` } }] }
        : { type: "text", text: "done after two tool calls" }
    }
    case "slow":
      return { type: "text", text: ANSWER, chunks: slow.chunks, chunkDelayMs: slow.chunkDelayMs }
    default:
      return { type: "text", text: ANSWER, chunks: CHUNKS }
  }
}

export const UPSTREAM_MODELS = ["text", "tools", "slow"] as const

const user = { role: "user", content: "Hello, how are you today?" }

/** Bodies sent to the upstream directly (OpenAI Chat Completions), as the gateway would send them. */
export const directBody = {
  text: (stream: boolean) =>
    JSON.stringify({
      model: "text",
      messages: [user],
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {})
    }),
  /** The three calls of the tool loop, in order: user; + one call and result; + two. */
  toolSteps: (): Array<string> => {
    const tools = [{
      type: "function",
      function: {
        name: TOOL_NAME,
        description: "Echoes its input",
        parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }
      }
    }]
    const step = (n: number) => [
      {
        role: "assistant",
        content: "",
        tool_calls: [{
          id: `call_${n}`,
          type: "function",
          function: { name: TOOL_NAME, arguments: `{"text":"step ${n}"}` }
        }]
      },
      { role: "tool", tool_call_id: `call_${n}`, content: `{"echoed":"step ${n}"}` }
    ]
    const history = [[user], [user, ...step(1)], [user, ...step(1), ...step(2)]]
    return history.map((messages) =>
      JSON.stringify({
        model: "tools",
        messages,
        tools,
        tool_choice: "auto",
        stream: true,
        stream_options: { include_usage: true }
      })
    )
  }
}

/** What the bench sends through one of parley's doors. */
export interface DoorBodies {
  readonly text: (stream: boolean) => string
  /** Two calls of the gateway's `bench_echo` tool, then text. */
  readonly toolLoop: () => string
  /** A streamed answer from the slow model (the open-streams run). */
  readonly slow: () => string
  /** What a whole streamed answer ends with (`[DONE]` of OpenAI's and the spec's streams; the last event of the others). */
  readonly streamEnd: string
}

/** The end of the spec's and Chat Completions' streams, and of the upstream's. */
export const DONE = "data: [DONE]"

/** Bodies of POST /api/v1/chat naming the models of `provider`. */
const uiBody = (provider: string): DoorBodies => ({
  text: (stream: boolean) => JSON.stringify({ model: `${provider}/text`, messages: [user], stream }),
  toolLoop: () =>
    JSON.stringify({ model: `${provider}/tools`, messages: [user], stream: false, allowedTools: [TOOL_NAME] }),
  slow: () => JSON.stringify({ model: `${provider}/slow`, messages: [user], stream: true }),
  streamEnd: DONE
})

/** Bodies of POST /api/v1/chat. */
export const parleyBody: DoorBodies = uiBody(PROVIDER)

/** A resumable run of POST /api/v1/chat from the slow model: kept under its chat id, going on if its client leaves. */
export const resumableBody = (id: string) =>
  JSON.stringify({ model: `${PROVIDER}/slow`, messages: [user], stream: true, id, onDisconnect: "continue" })

const streamed = { stream: true, stream_options: { include_usage: true } }

/** Bodies of POST /v1/chat/completions, as an OpenAI client sends them; the tool loop's tool rides as `allowedTools`. */
export const completionsBody: DoorBodies = {
  text: (stream: boolean) =>
    JSON.stringify({ model: `${PROVIDER}/text`, messages: [user], ...(stream ? streamed : {}) }),
  toolLoop: () => JSON.stringify({ model: `${PROVIDER}/tools`, messages: [user], allowedTools: [TOOL_NAME] }),
  slow: () => JSON.stringify({ model: `${PROVIDER}/slow`, messages: [user], ...streamed }),
  streamEnd: DONE
}

/** Bodies of POST /v1/messages, as an Anthropic client sends them (`max_tokens` is required there). */
export const messagesBody: DoorBodies = {
  text: (stream: boolean) =>
    JSON.stringify({ model: `${PROVIDER}/text`, max_tokens: 1024, messages: [user], ...(stream ? { stream } : {}) }),
  toolLoop: () =>
    JSON.stringify({ model: `${PROVIDER}/tools`, max_tokens: 1024, messages: [user], allowedTools: [TOOL_NAME] }),
  slow: () => JSON.stringify({ model: `${PROVIDER}/slow`, max_tokens: 1024, messages: [user], stream: true }),
  streamEnd: "event: message_stop"
}

/**
 * Bodies of POST /v1/responses, as an OpenAI client sends them, with `store: false` (as Codex sends it): the
 * door's translation against the others', not a database write per answer (stored responses, docs/DESIGN.md §14).
 */
export const responsesBody: DoorBodies = {
  text: (stream: boolean) => JSON.stringify({ model: `${PROVIDER}/text`, input: user.content, stream, store: false }),
  toolLoop: () =>
    JSON.stringify({ model: `${PROVIDER}/tools`, input: user.content, store: false, allowedTools: [TOOL_NAME] }),
  slow: () => JSON.stringify({ model: `${PROVIDER}/slow`, input: user.content, stream: true, store: false }),
  streamEnd: "event: response.completed"
}

/**
 * parley's doors the bench measures: the spec's chat, OpenAI's Chat Completions and Responses, Anthropic's Messages;
 * and `route`, the spec's chat to a route of one healthy target rather than to that model itself (issue 22).
 */
export const DOORS = {
  ui: { path: "/api/v1/chat", body: parleyBody },
  route: { path: "/api/v1/chat", body: uiBody(ROUTE_PROVIDER) },
  "chat-completions": { path: "/v1/chat/completions", body: completionsBody },
  responses: { path: "/v1/responses", body: responsesBody },
  messages: { path: "/v1/messages", body: messagesBody }
} as const satisfies Record<string, { readonly path: string; readonly body: DoorBodies }>
export type DoorName = keyof typeof DOORS

export const isDoorName = (name: string): name is DoorName => Object.hasOwn(DOORS, name)

/** `--door=NAME` of a command line (`ui` when absent); throws on an unknown door. */
export const doorOption = (args: ReadonlyArray<string>): DoorName => {
  const [name, ...more] = doorsOption(args)
  if (more.length > 0) throw new Error("one door only here")
  return name!
}

/** `--door=NAME[,NAME…]` of a command line (`ui` when absent): one door or several; throws on an unknown one. */
export const doorsOption = (args: ReadonlyArray<string>): ReadonlyArray<DoorName> => {
  const names = (args.find((arg) => arg.startsWith("--door="))?.slice("--door=".length) ?? "ui").split(",")
  const unknown = names.find((name) => !isDoorName(name))
  if (unknown !== undefined) throw new Error(`unknown door ${unknown}: use ${Object.keys(DOORS).join(" or ")}`)
  return names as Array<DoorName>
}

/** `--NAME=N` of a command line, `fallback` when absent. */
export const numberOption = (args: ReadonlyArray<string>, name: string, fallback: number): number =>
  Number(args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)

/** The scenario a command line names first (`fallback` when none): a JSON or a streamed answer. */
export const answerScenario = (args: ReadonlyArray<string>, fallback: "json" | "stream"): "json" | "stream" => {
  const scenario = args.find((arg) => !arg.startsWith("--")) ?? fallback
  if (scenario !== "json" && scenario !== "stream") throw new Error(`unknown scenario ${scenario}: use json or stream`)
  return scenario
}
