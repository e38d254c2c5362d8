import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { ApiKey } from "../../domain/ApiKey.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import type { NodeRoute } from "../../http/hotRoute.ts"
import { makeKeptRouting } from "../../http/keptRunRoutes.ts"
import { KeptRuns } from "../../http/KeptRuns.ts"
import { ResponseNotFound } from "../../store/responseErrors.ts"
import { StoredResponses } from "../../store/StoredResponses.ts"
import { openAiErrorBody } from "../openai/error.ts"
import { Replay } from "./replay.ts"

/** The route's key among the hot routes: `GET /v1/responses/{id}` asked with `stream=true`. */
export const backgroundStreamKey = "GET /v1/responses/{id}?stream=true"

const streamedPath = /^\/v1\/responses\/([^/?]+)\?(?:.*&)?stream=true(?:&|$)/

/** Whether `method url` asks for a response's events (`GET /v1/responses/{id}?stream=true…`). */
export const isBackgroundStream = (method: string | undefined, url: string): boolean =>
  method === "GET" && streamedPath.test(url)

const startingAfterOf = (url: string): number | undefined => {
  const given = new URL(url, "http://parley").searchParams.get("starting_after")
  if (given === null) return -1
  return /^\d{1,15}$/.test(given) ? Number(given) : undefined
}

/**
 * `GET /v1/responses/{id}?stream=true&starting_after=N` (docs/DESIGN.md §14,
 * §16): a background response's events after sequence number N (all without
 * it) as server-sent events, followed live until its run ended, from
 * whichever instance runs it, as the openai SDK's
 * `responses.retrieve(id, { stream: true, starting_after })` reads them.
 * Another key's response is 404; one whose events are not kept (not a
 * background response, or past `PARLEY_STREAM_RETENTION`) is 400.
 */
export const makeBackgroundStreamRoute = Effect.gen(function*() {
  const kept = yield* KeptRuns
  const stored = yield* StoredResponses
  const { follow, route } = yield* makeKeptRouting({ errorBody: (failure) => openAiErrorBody(failure) })

  const replay = (res: ServerResponse, id: string, key: ApiKey, correlationId: string, req: IncomingMessage) =>
    Effect.gen(function*() {
      const after = startingAfterOf(req.url ?? "")
      if (after === undefined) {
        return yield* new InvalidRequest({
          issues: [`"starting_after": must be an event's sequence_number (0 or more)`]
        })
      }
      if ((yield* stored.get(id, key.id)) === undefined) return yield* new ResponseNotFound({ id })
      const head = yield* kept.find(id, key.id)
      // A stream kept under the id by another door's run (a `ui` chat named so) is no response's.
      if (head === undefined || head.protocol !== "responses") {
        return yield* new InvalidRequest({
          issues: [
            `"stream": only a background response's events are kept, until PARLEY_STREAM_RETENTION after it ended: retrieve it without stream`
          ]
        })
      }
      return yield* follow(res, head, correlationId, new Replay(after))
    })

  return route((url) => streamedPath.exec(url)?.[1] ?? "", replay) satisfies NodeRoute
})
