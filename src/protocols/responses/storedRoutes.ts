import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import { makeKeyedRoute } from "../../http/keyedRoute.ts"
import { ResponseNotFound } from "../../store/responseErrors.ts"
import { StoredResponses } from "../../store/StoredResponses.ts"
import { openAiErrorBody } from "../openai/error.ts"
import { inputItemsPage, pageQueryOf } from "./inputItemsPage.ts"

const queryOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://parley").searchParams

const json = (body: unknown) => HttpServerResponse.jsonUnsafe(body)

/**
 * `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items` and
 * `DELETE /v1/responses/{id}` (docs/DESIGN.md §14): a stored response as
 * the POST answered it, its input items in OpenAI's list form, and its
 * deletion, each for the key that stored it alone (any other: 404, as an
 * unknown id), every failure in OpenAI's envelope. Replaying a response as
 * a stream (`stream=true`) comes with background responses.
 */
export const StoredResponsesRoutes = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const keyed = yield* makeKeyedRoute(openAiErrorBody)
    const stored = yield* StoredResponses

    const found = (id: string, keyId: string) =>
      Effect.flatMap(
        stored.get(id, keyId),
        (response) => response === undefined ? Effect.fail(new ResponseNotFound({ id })) : Effect.succeed(response)
      )

    yield* router.add("GET", "/v1/responses/:id", (request) =>
      keyed(request, (key) =>
        Effect.gen(function*() {
          const { id } = yield* HttpRouter.params
          if (queryOf(request).get("stream") === "true") {
            return yield* new InvalidRequest({
              issues: [`"stream" is not supported: replaying a stored response comes with background responses`]
            })
          }
          const response = yield* found(id!, key.id)
          return HttpServerResponse.text(response.response, { contentType: "application/json" })
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
