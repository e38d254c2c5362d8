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
