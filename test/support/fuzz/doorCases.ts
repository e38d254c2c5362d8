import { Arbitrary, Schema } from "effect"
import { fuzzedBodies } from "../doorProperties.ts"
import type { DoorCase } from "./answerCheck.ts"
import { CORRELATION_IDS, hostileText } from "./hostileText.ts"
import { beforeLast, type Body, historyCall, type Placement } from "./placement.ts"

const appended = (body: Body, field: string, ...values: ReadonlyArray<unknown>): Body => ({
  ...body,
  [field]: [...(body[field] as ReadonlyArray<unknown> | undefined) ?? [], ...values]
})

/** A hosted tool the body asks for that parley skips, named by the text: X-Tools-Skipped lists it. */
const skippedTool = (tool: (text: string) => Body): Placement => ({
  place: (body, text) => appended(body, "tools", tool(text)),
  wellFormed: "ok",
  lone: "refused",
  skipped: (text) => [text]
})

/** An MCP server the body asks for by the text: no server of the gateway's. */
const unknownServer = (field: string, server: (text: string) => Body): Placement => ({
  place: (body, text) => appended(body, field, server(text)),
  wellFormed: "refused",
  lone: "refused"
})

/** Every door: the model id, and tool names (a tool parley skips, as a server that cannot list its tools). */
export const commonPlacements: ReadonlyArray<Placement> = [
  { place: (body, text) => ({ ...body, model: `test/${text}` }), wellFormed: "refused", lone: "refused" },
  { place: (body, text) => ({ ...body, model: text }), wellFormed: "refused", lone: "refused" },
  // The fuzz gateway's MCP server `down` cannot list its tools: under contextStrategy=skip, they are skipped.
  {
    place: (body, text) => ({ ...body, allowedTools: [`down__${text}`], contextStrategy: "skip" }),
    wellFormed: "ok",
    lone: "refused",
    skipped: (text) => [`down__${text}`]
  },
  { place: (body, text) => ({ ...body, allowedTools: [text] }), wellFormed: "refused", lone: "refused" }
]

/** `/v1/chat/completions`: a tool call's id and function name in the history, the user, a message's text. */
export const chatCompletionsPlacements: ReadonlyArray<Placement> = [
  ...commonPlacements,
  { place: (body, text) => ({ ...body, user: text }), wellFormed: "ok", lone: "ok" },
  {
    place: (body, text) => beforeLast(body, "messages", [{ role: "user", content: text }]),
    wellFormed: "ok",
    lone: "ok"
  },
  ...historyCall("id", (id, name) => (body) =>
    beforeLast(body, "messages", [
      { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: "{}" } }] },
      { role: "tool", tool_call_id: id, content: "found" }
    ]))
]

/** `/v1/responses`: hosted tools' types and names, MCP labels, a function call's id and name, metadata, user. */
export const responsesPlacements: ReadonlyArray<Placement> = [
  ...commonPlacements,
  skippedTool((text) => ({ type: text })),
  skippedTool((text) => ({ type: "web_search", name: text })),
  unknownServer("tools", (text) => ({ type: "mcp", server_label: text })),
  ...(["user", "instructions", "prompt_cache_key"] as const).map((field): Placement => ({
    place: (body, text) => ({ ...body, [field]: text }),
    wellFormed: "ok",
    lone: "ok"
  })),
  {
    place: (body, text) => ({ ...body, metadata: { ...(body.metadata as Body | undefined), fuzz: text } }),
    wellFormed: "ok",
    lone: "ok"
  },
  ...historyCall("call_id", (id, name) => (body) =>
    beforeLast(
      { ...body, input: typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input },
      "input",
      [
        { type: "function_call", call_id: id, name, arguments: "{}" },
        { type: "function_call_output", call_id: id, output: "found" }
      ]
    ))
]

/** `/v1/messages`: hosted tools' names, MCP server names, a tool use's id and name, metadata, system. */
export const messagesPlacements: ReadonlyArray<Placement> = [
  ...commonPlacements,
  skippedTool((text) => ({ type: "web_search_20250305", name: text })),
  unknownServer("mcp_servers", (text) => ({ type: "url", name: text })),
  { place: (body, text) => ({ ...body, metadata: { user_id: text } }), wellFormed: "ok", lone: "ok" },
  { place: (body, text) => ({ ...body, system: text }), wellFormed: "ok", lone: "ok" },
  ...historyCall("id", (id, name) => (body) =>
    beforeLast(body, "messages", [
      { role: "assistant", content: [{ type: "tool_use", id, name, input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "found" }] }
    ]))
]

/** A valid body with hostile text at one of `placements`. */
export const hostileBodies = (
  validBodies: Arbitrary.Arbitrary<Body>,
  placements: ReadonlyArray<Placement>
): Arbitrary.Arbitrary<Omit<DoorCase, "path" | "headers">> =>
  Arbitrary.all({
    body: validBodies,
    at: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: placements.length - 1 }))),
    lone: Arbitrary.schema(Schema.Boolean),
    wellFormedText: hostileText(false),
    loneText: hostileText(true)
  }).pipe(Arbitrary.map(({ at, body, lone, loneText, wellFormedText }) => {
    const placement = placements[at]!
    const text = lone ? loneText : wellFormedText
    const expected = lone ? placement.lone : placement.wellFormed
    return {
      text: JSON.stringify(placement.place({ ...body, model: "test/m1" }, text)),
      expected,
      skipped: expected === "ok" ? placement.skipped?.(text) : undefined
    }
  }))

/**
 * The cases of a standard door's fuzzer: `fuzzedBodies` (a valid body, one
 * field set to any JSON, any JSON, a cut text) on any of its `paths` and, a
 * third of them, `hostileBodies` on its first; each with an
 * `X-Correlation-Id` a client may send.
 */
export const doorCases = (
  paths: readonly [string, ...Array<string>],
  validBodies: Arbitrary.Arbitrary<Body>,
  fields: ReadonlyArray<string>,
  placements: ReadonlyArray<Placement>
): Arbitrary.Arbitrary<DoorCase> =>
  Arbitrary.all({
    path: Arbitrary.schema(Schema.Literals(paths)),
    fuzzed: fuzzedBodies(validBodies, fields),
    hostile: hostileBodies(validBodies, placements),
    pick: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2 }))),
    correlationId: Arbitrary.schema(Schema.Literals(CORRELATION_IDS))
  }).pipe(Arbitrary.map(({ correlationId, fuzzed, hostile, path, pick }) => {
    const headers = { "x-correlation-id": correlationId }
    return pick === 0 ? { path: paths[0], ...hostile, headers } : { path, ...fuzzed, headers }
  }))
