import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ApiKey } from "../../domain/ApiKey.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import { KeptRuns } from "../../http/KeptRuns.ts"
import { makeKeyedRoute } from "../../http/keyedRoute.ts"
import { ResponseNotFound } from "../../store/responseErrors.ts"
import { StoredResponses } from "../../store/StoredResponses.ts"
import { openAiErrorBody } from "../openai/error.ts"
import { currentResponse, isRunning } from "./background.ts"
import { inputItemsPage, pageQueryOf } from "./inputItemsPage.ts"

const queryOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://parley").searchParams

const json = (body: unknown) => HttpServerResponse.jsonUnsafe(body)

const jsonText = (text: string) => HttpServerResponse.text(text, { contentType: "application/json" })

/** How long a cancel waits for the run to keep its `cancelled` end (a stop reaches it within a second). */
const CANCEL_WAIT_MS = 5_000
const CANCEL_POLL_MS = 100

/**
 * `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items`,
 * `DELETE /v1/responses/{id}` and `POST /v1/responses/{id}/cancel`
 * (docs/DESIGN.md §14): a stored response as the POST answered it (a
 * background one as it stands), its input items in OpenAI's list form, its
 * deletion, and the cancelling of a background run on whichever instance
 * runs it, each for the key that stored it alone (any other: 404, as an
 * unknown id), every failure in OpenAI's envelope. Its events as a stream
 * (`stream=true`) are a hot route (./backgroundRoutes.ts).
 */
export const StoredResponsesRoutes = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const keyed = yield* makeKeyedRoute(openAiErrorBody)
    const stored = yield* StoredResponses
    const kept = yield* KeptRuns

    const found = (id: string, keyId: string) =>
      Effect.flatMap(
        stored.get(id, keyId),
        (response) => response === undefined ? Effect.fail(new ResponseNotFound({ id })) : Effect.succeed(response)
      )

    yield* router.add("GET", "/v1/responses/:id", (request) =>
      keyed(request, (key) =>
        Effect.gen(function*() {
          const { id } = yield* HttpRouter.params
          return jsonText(yield* currentResponse(kept, stored, key, yield* found(id!, key.id)))
        })))

    // Waits until the stopped run kept how it ended (from whichever instance ran it), or the wait is over.
    const settled = (id: string, key: ApiKey, waited: number): Effect.Effect<string, ResponseNotFound> =>
      Effect.flatMap(found(id, key.id), (response) =>
        !isRunning(JSON.parse(response.response)) || waited >= CANCEL_WAIT_MS
          ? currentResponse(kept, stored, key, response)
          : Effect.andThen(Effect.sleep(CANCEL_POLL_MS), settled(id, key, waited + CANCEL_POLL_MS)))

    yield* router.add("POST", "/v1/responses/:id/cancel", (request) =>
      keyed(request, (key) =>
        Effect.gen(function*() {
          const { id } = yield* HttpRouter.params
          const response = JSON.parse(yield* currentResponse(kept, stored, key, yield* found(id!, key.id)))
          if (response.background !== true) {
            return yield* new InvalidRequest({ issues: ["Cannot cancel a synchronous response"] })
          }
          // A run that already ended is answered as it ended.
          if (!isRunning(response)) {
            return json(response)
          }
          yield* Effect.ignore(kept.stop(id!, key.id))
          return jsonText(yield* settled(id!, key, 0))
        })))

    yield* router.add("GET", "/v1/responses/:id/input_items", (request) =>
      keyed(request, (key) =>
        Effect.gen(function*() {
          const { id } = yield* HttpRouter.params
          const query = pageQueryOf(queryOf(request))
          if (!("limit" in query)) {
            return yield* new InvalidRequest({ issues: query })
          }
          const response = yield* found(id!, key.id)
          const page = inputItemsPage(JSON.parse(response.input), query)
          if (!("object" in page)) {
            return yield* new InvalidRequest({ issues: page })
          }
          return json(page)
        })))

    yield* router.add("DELETE", "/v1/responses/:id", (request) =>
      keyed(request, (key) =>
        Effect.gen(function*() {
          const { id } = yield* HttpRouter.params
          const deleted = yield* stored.remove(id!, key.id)
          if (!deleted) {
            return yield* new ResponseNotFound({ id: id! })
          }
          return json({ id, object: "response", deleted: true })
        })))
  })
)
