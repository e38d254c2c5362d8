import type { KeptReplay } from "../../http/KeptReplays.ts"
import { eventsAfter } from "./background.ts"

const HEADERS: Readonly<Record<string, string>> = { "cache-control": "no-cache", "x-accel-buffering": "no" }

const NOT_KEPT = JSON.stringify({
  type: "server_error",
  code: "stream_not_kept",
  message: "The rest of this response's events were not kept: they passed the size a kept stream may keep",
  param: null
})

const SEQUENCE = `"sequence_number":`

/**
 * One replay of a response's kept events (docs/DESIGN.md §16), from any
 * route (`starting_after`'s alone when asked), with the stream's own
 * headers, whose cut ends as the specification's streams end: an `error`
 * event (its `ErrorStreamingEvent`) numbered after the last event the replay
 * wrote, then `data: [DONE]`.
 */
export class Replay implements KeptReplay {
  readonly headers = HEADERS
  // The sequence number the cut's event takes: the one after the last event written.
  private next: number
  private readonly after: ((text: string) => string) | undefined

  /** `after`: the events after this sequence number (`starting_after`); -1: all of them. */
  constructor(after: number) {
    this.after = after < 0 ? undefined : eventsAfter(after)
    this.next = after + 1
  }

  readonly select = (text: string): string => {
    const kept = this.after === undefined ? text : this.after(text)
    const at = kept.lastIndexOf(SEQUENCE)
    if (at >= 0) this.next = Number.parseInt(kept.slice(at + SEQUENCE.length), 10) + 1
    return kept
  }

  get cut(): string {
    return `event: error\ndata: {"type":"error","error":${NOT_KEPT},"sequence_number":${this.next}}\n\ndata: [DONE]\n\n`
  }
}
