import { Cause, Effect, Fiber } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { ApiKeys } from "../auth/ApiKeys.ts"
import type { ApiKey } from "../domain/ApiKey.ts"
import type { ChatProtocolName } from "../domain/protocols.ts"
import { requestObserver } from "../observability/observeRequest.ts"
import type { StreamHead } from "../store/RunStreams.ts"
import type { WriteStage } from "./answerWrites.ts"
import type { ChatProtocol } from "./chatProtocol.ts"
import { correlationIdFor } from "./CorrelationId.ts"
import { logUnexpected } from "./errorResponse.ts"
import type { ApiFailure } from "./errorTable.ts"
import type { NodeRoute } from "./hotRoute.ts"
import { type KeptReplay, KeptReplays } from "./KeptReplays.ts"
import { KeptRuns } from "./KeptRuns.ts"
import { writeError, writeJson } from "./nodeAnswers.ts"
import { settleUnreadBody } from "./nodeBody.ts"
import { ServerDrain } from "./ServerDrain.ts"
import { makeWriteFailureReport } from "./writeFailures.ts"

/** Most chunks read from the store at a time: with one socket buffer, what a follower holds at most. */
export const READ_BATCH = 64

/** `/api/v1/chat/{id}/stream` and `…/stop`: the id, or undefined for any other path. */
const keptRunPath = /^\/api\/v1\/chat\/([^/?]+)\/(stream|stop)(?:\?.*)?$/

/** The route of a kept run's path (`GET …/stream`, `POST …/stop`) among `routes`, keyed as `METHOD /api/v1/chat/{id}/…`. */
export const keptRunRouteKey = (method: string | undefined, path: string): string | undefined => {
  const match = keptRunPath.exec(path)
  return match === null ? undefined : `${method} /api/v1/chat/{id}/${match[2]}`
}

// A malformed escape names no kept id: the empty one, which none is kept under.
const decodedSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return ""
  }
}

// Resolves once the socket took what was written, or the client left.
const drained = (res: ServerResponse) =>
  Effect.callback<void>((resume) => {
    const done = () => {
      res.off("drain", done)
      res.off("close", done)
      resume(Effect.void)
    }
    res.on("drain", done)
    res.on("close", done)
    return Effect.sync(() => {
      res.off("drain", done)
      res.off("close", done)
    })
  })

/**
 * What the routes that read or stop kept runs share (docs/DESIGN.md §16), on
 * Node's own request and response as the chat routes they belong to:
 * `route` authenticates, logs and tracks one such request (its answer
 * interrupted when the client leaves or the shutdown grace is over), each
 * failure in the route's protocol's envelope; `follow` writes a kept stream,
 * framed as the door that made it (`KeptReplays`), after its sequence
 * number 0 and follows it live, waiting for a slow reader's socket before it
 * reads more (so a follower holds one read batch and one socket buffer).
 */
export const makeKeptRouting = <Wire>(protocol: Pick<ChatProtocol<Wire>, "errorBody">) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const kept = yield* KeptRuns
    const replays = yield* KeptReplays
    const drain = yield* ServerDrain
    const observer = yield* requestObserver
    const scope = yield* Effect.scope
    const context = yield* Effect.context<never>()
    const report = yield* makeWriteFailureReport

    // A write of a replay that throws ends that replay only, told as a chat answer's is (docs/DESIGN.md §3.25):
    // `wrote(stage, write)` says whether it went.
    const writesOf =
      (res: ServerResponse, door: ChatProtocolName, correlationId: string) =>
      (stage: WriteStage, write: () => void): boolean => {
        try {
          write()
          return true
        } catch (error) {
          report(door, stage, error, correlationId)
          res.destroy()
          return false
        }
      }

    const follow = (
      res: ServerResponse,
      { protocol, run }: StreamHead,
      correlationId: string,
      replay?: KeptReplay
    ) =>
      Effect.gen(function*() {
        const ending = replay ?? replays.of(protocol)
        // Only a door that keeps runs records them: one that keeps none has no replay.
        if (ending === undefined) return yield* Effect.die(new Error(`The ${protocol} door keeps no runs`))
        const wrote = writesOf(res, protocol, correlationId)
        const head = { ...ending.headers, "x-correlation-id": correlationId, "content-type": "text/event-stream" }
        if (!wrote("head", () => res.writeHead(200, head))) return
        let after = 0
        let read = yield* kept.read(run, after, READ_BATCH)
        while (read !== undefined && !res.destroyed) {
          const chunks = read.chunks
          if (chunks.length > 0) {
            after = chunks[chunks.length - 1]!.seq
            let text = ""
            const select = ending.select
            for (const chunk of chunks) text += select === undefined ? chunk.text : select(chunk.text)
            let taken = true
            if (!wrote("chunk", () => void (taken = res.write(text)))) return
            if (!taken) yield* drained(res)
          } else if (read.status === "ended") {
            return void wrote("end", () => res.end())
          } else if (read.status === "cut") {
            return void wrote("end", () => res.end(ending.cut))
          } else {
            yield* kept.changed(run)
          }
          read = yield* kept.read(run, after, READ_BATCH)
        }
        // Swept while followed (its retention passed), or the client left.
        wrote("end", () => res.end())
      })

    const fail = (cause: Cause.Cause<ApiFailure>, req: IncomingMessage, res: ServerResponse, correlationId: string) => {
      if (Cause.hasInterruptsOnly(cause)) return Effect.void
      const failure = Cause.findErrorOption(cause)
      const answer = Effect.sync(() => {
        if (res.headersSent) return void res.destroy()
        settleUnreadBody(req, res)
        writeError(
          res,
          protocol.errorBody(failure._tag === "Some" ? failure.value : undefined, correlationId, undefined),
          correlationId
        )
      })
      return failure._tag === "Some" ? answer : Effect.andThen(logUnexpected(cause, correlationId), answer)
    }

    /** The route of `answer`, given the kept id the request's path names (`idOf`). */
    const route = (
      idOf: (url: string) => string,
      answer: (
        res: ServerResponse,
        id: string,
        key: ApiKey,
        correlationId: string,
        req: IncomingMessage
      ) => Effect.Effect<void, ApiFailure>
    ): NodeRoute =>
    (req, res) => {
      const correlationId = correlationIdFor(req.headers["x-correlation-id"] as string | undefined)
      const log = observer.start(correlationId, req.method, req.url)
      const id = idOf(req.url ?? "")
      const program = observer.observe(
        log,
        Effect.flatMap(keys.authenticate(req.headers.authorization), (key) => {
          log.keyed(key)
          settleUnreadBody(req, res)
          return answer(res, id, key, correlationId, req)
        }).pipe(Effect.catchCause((cause) => fail(cause, req, res, correlationId))),
        () => res.headersSent ? res.statusCode : 499
      )
      const fiber = Fiber.runIn(Effect.runForkWith(context)(program), scope)
      if (fiber.pollUnsafe() !== undefined) return
      res.once("close", () => {
        if (!res.writableEnded) fiber.interruptUnsafe()
      })
      drain.track(res, () => {
        fiber.interruptUnsafe()
        if (!res.writableEnded) res.end()
      })
    }

    return { route, follow }
  })

/**
 * Resuming and stopping a `ui` run that outlives its client (docs/DESIGN.md §16):
 * `GET /api/v1/chat/{id}/stream` writes the kept stream from its start and
 * follows it live (a run another door made, such as a background response, as
 * that door's stream), or answers 204 when nothing is kept;
 * `POST /api/v1/chat/{id}/stop` stops it on whichever instance runs it.
 * Another key's run is 404, as none.
 */
export const makeKeptRunRoutes = <Wire>(protocol: Pick<ChatProtocol<Wire>, "errorBody">) =>
  Effect.gen(function*() {
    const kept = yield* KeptRuns
    const { follow, route } = yield* makeKeptRouting(protocol)
    // The AI SDK's transport encodes the id as one path segment.
    const idOf = (url: string) => decodedSegment(keptRunPath.exec(url)?.[1] ?? "")

    const resume = (res: ServerResponse, id: string, key: ApiKey, correlationId: string) =>
      Effect.gen(function*() {
        const head = yield* kept.find(id, key.id)
        const read = head === undefined ? undefined : yield* kept.read(head.run, 0, 1)
        if (head === undefined || read === undefined || (read.status === "ended" && read.chunks.length === 0)) {
          res.writeHead(204, { "x-correlation-id": correlationId })
          return res.end()
        }
        return yield* follow(res, head, correlationId)
      })

    const stop = (res: ServerResponse, id: string, key: ApiKey, correlationId: string) =>
      Effect.map(
        kept.stop(id, key.id),
        (stopping) =>
          writeJson(
            res,
            stopping ? 202 : 200,
            { success: true, data: { id, status: stopping ? "stopping" : "ended" } },
            {
              "x-correlation-id": correlationId
            }
          )
      )

    return new Map<string, NodeRoute>([
      ["GET /api/v1/chat/{id}/stream", route(idOf, resume)],
      ["POST /api/v1/chat/{id}/stop", route(idOf, stop)]
    ])
  })
