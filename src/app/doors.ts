import type { Effect, Layer } from "effect"
import type { ChatProtocolName } from "../domain/protocols.ts"
import { chatCompletionsDoor } from "../protocols/chat-completions/door.ts"
import type { Door } from "../protocols/door.ts"
import { messagesDoor } from "../protocols/messages/door.ts"
import { responsesDoor } from "../protocols/responses/door.ts"
import { uiDoor } from "../protocols/ui/door.ts"

/**
 * The door table's entries (docs/DESIGN.md §2, §14): what each chat door's
 * folder serves, under its name in `domain/protocols.ts`'s table (a name
 * missing here, or one here and not there, fails `tsc`). The hot routes,
 * the contract, the router's side routes and the kept runs' replays come
 * from here alone.
 */
export const doors = {
  ui: uiDoor,
  "chat-completions": chatCompletionsDoor,
  responses: responsesDoor,
  messages: messagesDoor
} satisfies { readonly [Name in ChatProtocolName]: Door<any> }

// What the doors' protocols, hot routes and side routes are made from.
type Of<F extends "protocol" | "hotRoutes" | "routes" | "socket"> = {
  [Name in ChatProtocolName]: (typeof doors)[Name] extends { readonly [K in F]: infer E } ?
    E extends Effect.Effect<any, any, infer R> ? R : E extends Layer.Layer<any, any, infer R> ? R : never
    : never
}[ChatProtocolName]

/** Every chat door with its name, in the table's order. */
export const doorList = Object.entries(doors) as unknown as ReadonlyArray<
  readonly [ChatProtocolName, Door<Of<"protocol">, Of<"hotRoutes">, Of<"routes">, Of<"socket">>]
>
