/**
 * The doors a request comes in by (docs/DESIGN.md §2, §14): the one table of
 * them. A row is a door's contract name (what the ledger's `protocol`
 * column, the metrics' `protocol` label and the spans' `parley.protocol`
 * say) and the paths its routes answer (its chat route first; each a
 * `route` label of its own). The chat doors (`src/protocols/<name>/`) give
 * the app, under the same names, what they serve (`app/doors.ts`); `/mcp`'s
 * tools/call is a door too, served by `http/mcpEndpoint.ts`. Adding a door is
 * its folder, its row here and its entry there.
 */
export const DOORS = {
  ui: { paths: ["/api/v1/chat"] },
  "chat-completions": { paths: ["/v1/chat/completions"] },
  responses: { paths: ["/v1/responses"] },
  messages: { paths: ["/v1/messages", "/v1/messages/count_tokens"] },
  mcp: { paths: ["/mcp"] }
} as const satisfies Readonly<Record<string, { readonly paths: ReadonlyArray<string> }>>

export type Protocol = keyof typeof DOORS

/** Every door's name, in the table's order. */
export const protocols = Object.keys(DOORS) as ReadonlyArray<Protocol>

/** The protocols a chat route speaks (every one but `/mcp`'s). */
export type ChatProtocolName = Exclude<Protocol, "mcp">

/** The chat doors' names, in the table's order. */
export const chatProtocols = protocols.filter((name): name is ChatProtocolName => name !== "mcp")

/** A chat door's own route: `POST` its first path. */
export const chatRouteOf = (name: ChatProtocolName): string => `POST ${DOORS[name].paths[0]}`

/**
 * The chat protocol a stored name says (a kept run's, docs/DESIGN.md §16); a
 * run kept before its protocol was recorded (none, or an unknown name) was the `ui` door's.
 */
export const chatProtocolOf = (name: string | null | undefined): ChatProtocolName =>
  name != null && name !== "mcp" && Object.hasOwn(DOORS, name) ? name as ChatProtocolName : "ui"
