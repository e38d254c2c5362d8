import type { ChatProtocolName } from "../domain/protocols.ts"
import type { KeptReplay } from "../http/KeptReplays.ts"
import { KeptReplays } from "../http/KeptReplays.ts"
import { responsesReplay } from "../protocols/responses/encode.ts"
import { uiProtocol } from "../protocols/ui/protocol.ts"

// Each door's replay of its kept runs; the doors that keep none have none.
const REPLAYS: { readonly [Name in ChatProtocolName]: KeptReplay | undefined } = {
  ui: uiProtocol.replay,
  "chat-completions": undefined,
  responses: responsesReplay,
  messages: undefined
}

/** How each door's kept runs are replayed, for the routes below the protocols that replay them (docs/DESIGN.md §16). */
export const keptReplays = KeptReplays.of({ of: (protocol) => REPLAYS[protocol] })
