import { Effect, Layer } from "effect"
import type { ChatProtocol } from "../http/chatProtocol.ts"
import { KeptReplays } from "../http/KeptReplays.ts"
import { doorList } from "./doors.ts"

/** Every chat door's protocol, by its name, made from the app's services. */
export const makeDoorProtocols = Effect.map(
  Effect.forEach(doorList, ([, door]) => door.protocol),
  (made): ReadonlyMap<string, ChatProtocol<any>> => new Map(made.map((protocol) => [protocol.name, protocol]))
)

/** How each door's kept runs are replayed (its `ChatProtocol.replay`), for the routes below the protocols (docs/DESIGN.md §16). */
export const keptReplaysOf = (made: ReadonlyMap<string, ChatProtocol<any>>) =>
  KeptReplays.of({ of: (protocol) => made.get(protocol)?.replay?.() })

export const keptReplaysLayer = Layer.effect(KeptReplays, Effect.map(makeDoorProtocols, keptReplaysOf))
