import { Context } from "effect"
import type { ChatProtocolName } from "../domain/protocols.ts"

/**
 * How a door's kept streams are replayed (docs/DESIGN.md §16): the headers
 * of its streams (each door's own: the `ui` door's `x-vercel-ai-ui-message-stream`
 * is its alone), and the ending of one that grew past its bound, in its own events.
 */
export interface KeptReplay {
  readonly headers: Readonly<Record<string, string>>
  /** What of each kept chunk the reader is sent (a Responses replay's events after `starting_after`); absent: all. */
  readonly select?: ((text: string) => string) | undefined
  /** Written after the last kept chunk of a stream that grew past its bound and stopped being kept. */
  readonly cut: string
}

/**
 * Each door's `KeptReplay`, by the protocol a kept run recorded (`StreamHead.protocol`): every replay of a
 * run, whichever route asks (a resume, a background response's stream, the admin API's and so the console's),
 * is framed as the stream its door sent. The app provides it from the door table, as the replaying routes sit
 * below the protocols. `undefined`: the door keeps no runs.
 */
export class KeptReplays extends Context.Service<
  KeptReplays,
  {
    /** A replay of a run of door `protocol`, for one reader: a door whose cut numbers its events keeps that per replay. */
    readonly of: (protocol: ChatProtocolName) => KeptReplay | undefined
  }
>()("parley/http/KeptReplays") {}
