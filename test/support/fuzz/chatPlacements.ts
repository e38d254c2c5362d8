import { beforeLast, type Placement } from "./placement.ts"

/** An assistant message with a finished call of `echo`, one of its fields set to `value`. */
export const echoCallWith = (field: string, value: unknown) => ({
  role: "assistant",
  parts: [{
    type: "dynamic-tool",
    toolName: "echo",
    toolCallId: "c1",
    state: "output-available",
    input: { text: "x" },
    output: "ok",
    [field]: value
  }]
})

/**
 * Where a body's text can reach a header, a log line, a tool name or an id
 * (issue 32 part 3), and what the gateway answers with hostile text there
 * (`wellFormed`) or text holding a lone surrogate (`lone`).
 */
export const chatPlacements: ReadonlyArray<Placement> = [
  { place: (body, text) => ({ ...body, model: `test/${text}` }), wellFormed: "refused", lone: "refused" },
  {
    place: (body, text) => ({ ...body, allowedTools: [`down__${text}`], contextStrategy: "skip" }),
    wellFormed: "ok",
    lone: "refused",
    skipped: (text) => [`down__${text}`]
  },
  { place: (body, text) => ({ ...body, allowedTools: [text] }), wellFormed: "refused", lone: "refused" },
  ...(["id", "messageId", "systemPrompt"] as const).map((field): Placement => ({
    place: (body, text) => ({ ...body, [field]: text }),
    wellFormed: "ok",
    lone: "ok"
  })),
  {
    place: (body, text) => beforeLast(body, "messages", [{ id: text, role: "user", parts: [{ type: "text", text }] }]),
    wellFormed: "ok",
    lone: "ok"
  },
  ...(["toolCallId", "toolName"] as const).map((field): Placement => ({
    place: (body, text) => beforeLast(body, "messages", [echoCallWith(field, text)]),
    // A call of a tool no key allows, in the history: the model is told of it as any other.
    wellFormed: "ok",
    lone: field === "toolCallId" ? "ok" : "refused"
  }))
]
