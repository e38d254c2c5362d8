/**
 * The ways a request comes in (docs/DESIGN.md §14), by contract name: the
 * chat protocols (`src/protocols/<name>/`) and `/mcp`'s tools/call. The
 * ledger's `protocol` column, the metrics' `protocol` label and the spans'
 * `parley.protocol` attribute say these names.
 */
export const protocols = ["ui", "chat-completions", "responses", "messages", "mcp"] as const

export type Protocol = (typeof protocols)[number]

/** The protocols a chat route speaks (every one but `/mcp`'s). */
export type ChatProtocolName = Exclude<Protocol, "mcp">

/**
 * The chat protocol a stored name says (a kept run's, docs/DESIGN.md §16); a
 * run kept before its protocol was recorded (none, or an unknown name) was the `ui` door's.
 */
export const chatProtocolOf = (name: string | null | undefined): ChatProtocolName =>
  name != null && name !== "mcp" && (protocols as ReadonlyArray<string>).includes(name)
    ? name as ChatProtocolName
    : "ui"
