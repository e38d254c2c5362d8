import type { ProviderFailure } from "../models/ProviderFailure.ts"
import type { Emit } from "./RunState.ts"

/** Where a run's chunks go. */
export interface RunSink {
  readonly emit: Emit
  /**
   * A streamed answer takes a provider failure after the first chunk, named
   * by meaning: the protocol behind the sink words it in its own stream
   * (docs/DESIGN.md §3.3, §14), and the run then ends the stream with its
   * `finish` chunk. Absent (an answer sent in one piece), the run fails.
   */
  readonly failed?: ((failure: ProviderFailure) => void) | undefined
  /**
   * The sink takes a `reset-step` chunk: what it was given of the step so far
   * is dropped (the `ui` protocol's client drops the step's parts; an answer
   * sent in one piece never sent them), so a step that broke off can be
   * retried on a route's next target (docs/DESIGN.md §15). Absent: a step is
   * retried only before its first chunk.
   */
  readonly resetsStep?: boolean | undefined
}
