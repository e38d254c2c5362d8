import type { Emit } from "./RunState.ts"

/** Where a run's events go. */
export interface RunSink {
  readonly emit: Emit
  /**
   * A streamed answer: a provider failure after the first event is an
   * `error` event, which the door behind the sink words in its own stream
   * (docs/DESIGN.md §3.3, §14), and the run then ends with its `finish`.
   * Absent (an answer sent in one piece), the run fails.
   */
  readonly streams?: boolean | undefined
  /**
   * The sink takes a `reset-step` event: what it was given of the step so far
   * is dropped (the `ui` door's client drops the step's parts; an answer
   * sent in one piece never sent them), so a step that broke off can be
   * retried on a route's next target (docs/DESIGN.md §15). Absent: a step is
   * retried only before its first event.
   */
  readonly resetsStep?: boolean | undefined
}
