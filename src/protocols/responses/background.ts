import { Effect } from "effect"
import type { ApiKey } from "../../domain/ApiKey.ts"
import type { Answering } from "../../http/chatProtocol.ts"
import type { KeptRuns } from "../../http/KeptRuns.ts"
import type { StoredResponse, StoredResponses } from "../../store/StoredResponses.ts"
import type { ResponsesWire } from "./decode.ts"
import { responseShell, unixSeconds } from "./response.ts"
import { currentShape } from "./storedShape.ts"

/**
 * A background response as it is accepted (docs/DESIGN.md §14, §16): stored
 * `queued` when its client does not follow the stream (and answered so at
 * once), `in_progress` when it does; the run goes on without the client and
 * its events are kept under the response's id.
 */
export const acceptedOf = ({ correlationId, wire }: Answering<ResponsesWire>) =>
  wire.background === undefined ? undefined : {
    answer: {
      ...responseShell(correlationId, wire, unixSeconds()),
      status: wire.background.detached ? "queued" : "in_progress"
    },
    detached: wire.background.detached
  }

/** Still running, as its stored status says until its run keeps how it ended. */
export const isRunning = (response: { readonly status?: unknown }) =>
  response.status === "queued" || response.status === "in_progress"

const ENDED_UNTOLD = "The background run ended without its answer: the instance that ran it stopped"

/**
 * A stored response as it stands: one stored `queued` is `in_progress` once
 * its run's stream began (its first events kept). One whose status says it runs while its
 * kept stream says otherwise (gone, or ended without the run keeping how it
 * ended: its instance died, and the stream was forgotten an hour after it
 * began) is marked `failed` with the reason, so that none stays
 * `in_progress` forever. Only the key's own response is given here.
 */
export const currentResponse = (
  kept: KeptRuns["Service"],
  stored: StoredResponses["Service"],
  key: ApiKey,
  found: StoredResponse
): Effect.Effect<string> =>
  Effect.gen(function*() {
    const { response, text } = shaped(found)
    if (!isRunning(response)) return text
    const head = yield* Effect.orElseSucceed(kept.find(found.id, key.id), () => undefined)
    if (head?.status === "running") {
      if (response.status === "in_progress") return text
      const begun = yield* kept.read(head.run, 0, 1)
      return begun === undefined || begun.chunks.length === 0
        ? text
        : JSON.stringify({ ...response, status: "in_progress" })
    }
    // How it ended may have been kept since it was read.
    const again = yield* stored.get(found.id, key.id)
    if (again === undefined) return text
    const ended = shaped(again)
    if (!isRunning(ended.response)) return ended.text
    const failed = JSON.stringify({
      ...response,
      status: "failed",
      error: { code: "server_error", message: ENDED_UNTOLD }
    })
    yield* stored.put({ ...found, keyId: key.id, response: failed })
    return failed
  })

// A stored row's response in its current shape, and its text: the row's own when it has that shape already.
const shaped = (row: StoredResponse) => {
  const kept = JSON.parse(row.response) as Record<string, unknown>
  const response = currentShape(kept)
  return { response, text: response === kept ? row.response : JSON.stringify(response) }
}

/** A kept chunk's events after sequence number `after` (`starting_after`): each event ends with its number. */
export const eventsAfter = (after: number) => (text: string): string => {
  let kept = ""
  for (const event of text.split("\n\n")) {
    if (event === "") continue
    const number = /"sequence_number":(\d+)\}$/.exec(event)
    if (number === null || Number(number[1]) > after) kept += `${event}\n\n`
  }
  return kept
}
