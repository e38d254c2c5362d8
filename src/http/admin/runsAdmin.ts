import { Effect, Option, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import type { Principal } from "../../api/AdminAuthentication.ts"
import type { ApiKeys } from "../../auth/ApiKeys.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import type { KeptRunView } from "../../domain/views.ts"
import type { RunSummary } from "../../store/RunStreams.ts"
import type { KeptReplay, KeptReplays } from "../KeptReplays.ts"
import { READ_BATCH } from "../keptRunRoutes.ts"
import type { KeptRuns } from "../KeptRuns.ts"
import { RunNotFound } from "../requestErrors.ts"
import { visibleKey } from "./access.ts"
import { ok } from "./adminViews.ts"

/** Most runs a list holds, and how many unless asked. */
const MAX_RUNS = 200
const DEFAULT_RUNS = 50

const runView = (run: RunSummary): KeptRunView => ({
  id: run.id,
  protocol: run.protocol,
  status: run.status === "running" ? "running" : run.stopped ? "stopped" : "ended",
  cut: run.status === "cut",
  startedAt: new Date(run.startedAt).toISOString(),
  endedAt: run.endedAt === null ? null : new Date(run.endedAt).toISOString()
})

const limitOf = (text: string | undefined) => {
  if (text === undefined) return Effect.succeed(DEFAULT_RUNS)
  const limit = Number(text)
  return Number.isInteger(limit) && limit >= 1 && limit <= MAX_RUNS
    ? Effect.succeed(limit)
    : Effect.fail(new InvalidRequest({ issues: [`"limit" must be an integer from 1 to ${MAX_RUNS}`] }))
}

const encoder = new TextEncoder()

/**
 * A key's kept runs on /admin/v1 (docs/DESIGN.md §6, §16): its running and
 * recent runs (those still kept: within `PARLEY_STREAM_RETENTION` of their
 * end), a stop that reaches whichever instance runs one, and its kept stream
 * replayed and followed as `GET /api/v1/chat/{id}/stream` does. The key's
 * account holder and the operator only: another account's key is 404, as is
 * a chat id the key has no run under.
 */
export const makeRunsAdmin = (
  keys: ApiKeys["Service"],
  kept: KeptRuns["Service"],
  replays: KeptReplays["Service"]
) => {
  const runOf = (principal: Principal, keyId: string, chatId: string) =>
    Effect.flatMap(visibleKey(keys, principal, keyId), (key) =>
      Effect.flatMap(
        kept.find(chatId, key.id),
        (head) => head === undefined ? Effect.fail(new RunNotFound({ id: chatId })) : Effect.succeed(head)
      ))

  // Batches of the run's chunks after `after`, waiting for more while it runs; its door's cut ending after a cut one's.
  const follow = (run: string, ending: KeptReplay) =>
    Stream.paginate(0, (after: number) =>
      Effect.gen(function*() {
        const read = yield* kept.read(run, after, READ_BATCH)
        if (read === undefined) return [[], Option.none()] as const
        const last = read.chunks.at(-1)
        if (last !== undefined) {
          const select = ending.select
          const text = read.chunks.map((chunk) => select === undefined ? chunk.text : select(chunk.text)).join("")
          return [[text], Option.some(last.seq)] as const
        }
        if (read.status === "cut") return [[ending.cut], Option.none()] as const
        if (read.status !== "running") return [[], Option.none()] as const
        yield* kept.changed(run)
        return [[], Option.some(after)] as const
      }))

  return {
    list: (principal: Principal, keyId: string, limit: string | undefined) =>
      Effect.gen(function*() {
        const key = yield* visibleKey(keys, principal, keyId)
        const runs = yield* kept.runs(key.id, yield* limitOf(limit))
        return ok({ runs: runs.map(runView) })
      }),
    stop: (principal: Principal, keyId: string, chatId: string) =>
      Effect.gen(function*() {
        yield* runOf(principal, keyId, chatId)
        const stopping = yield* kept.stop(chatId, keyId)
        return ok({ id: chatId, status: stopping ? "stopping" : "ended" })
      }),
    stream: (principal: Principal, keyId: string, chatId: string) =>
      Effect.gen(function*() {
        const head = yield* runOf(principal, keyId, chatId)
        const first = yield* kept.read(head.run, 0, 1)
        const ending = replays.of(head.protocol)
        if (first === undefined || ending === undefined || (first.status === "ended" && first.chunks.length === 0)) {
          return HttpServerResponse.empty({ status: 204 })
        }
        // Framed as the stream the run's own door sent (docs/DESIGN.md §16).
        return HttpServerResponse.stream(
          follow(head.run, ending).pipe(Stream.map((text) => encoder.encode(text))),
          { contentType: "text/event-stream", headers: { ...ending.headers, "cache-control": "no-store" } }
        )
      })
  }
}
