import type { PgClient } from "@effect/sql-pg/PgClient"
import { Duration, Effect, Option, Queue, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { ChangeFeed, type ChangeTopic, changeTopics, makeSubscribers, type Subscribers } from "./ChangeFeed.ts"

/**
 * The change feed between instances on one Postgres database
 * (docs/DESIGN.md §8): `pg_notify` on publish, and one connection held for
 * `LISTEN`. The channel is named after the schema, so deployments sharing a
 * database in separate schemas never hear each other.
 */
export interface PostgresFeedOptions {
  /** Hear other instances' changes (the server); the CLI only announces its own. */
  readonly listen: boolean
}

const Notice = Schema.fromJsonString(Schema.Struct({
  origin: Schema.String,
  topic: Schema.Literals(changeTopics),
  id: Schema.String
}))
const encodeNotice = Schema.encodeSync(Notice)
const decodeNotice = Schema.decodeUnknownOption(Notice)

// Postgres truncates identifiers to 63 bytes (NAMEDATALEN) and refuses longer channel names.
const channelOf = (schema: string) => Buffer.from(`parley.${schema}`).subarray(0, 63).toString()

/** The first retry comes quickly (a restarted server is back in a moment), later ones no closer than 5 s. */
const backoff = (attempt: number): Duration.Duration => Duration.millis(Math.min(100 * 2 ** attempt, 5_000))

export const makePostgresChangeFeed = Effect.fnUntraced(function*(pg: PgClient, options: PostgresFeedOptions) {
  const rows = yield* pg<{ schema: string }>`SELECT COALESCE(current_schema(), '') AS schema`
  const channel = channelOf(rows[0]?.schema ?? "")
  // Our own notices come back on our LISTEN: subscribers here heard them already.
  const origin = randomBytes(9).toString("base64url")
  const subscribers = makeSubscribers()

  const publish = (topic: ChangeTopic, id: string) =>
    subscribers.deliver(topic, { _tag: "One", id }).pipe(
      Effect.andThen(pg.notify(channel, encodeNotice({ origin, topic, id }))),
      Effect.catchCause((cause) =>
        Effect.logWarning("Could not tell other instances of a change; they see it when their caches expire", cause)
          .pipe(Effect.annotateLogs({ topic }))
      )
    )

  if (options.listen) yield* Effect.forkScoped(listenForever(pg, channel, origin, subscribers))
  return ChangeFeed.of({ publish, subscribe: subscribers.subscribe })
})

/** One `LISTEN` until its connection fails; `onListening` runs once Postgres confirmed it. */
const listenOnce = (
  pg: PgClient,
  channel: string,
  origin: string,
  subscribers: Subscribers,
  onListening: Effect.Effect<void>
) =>
  Effect.scoped(Effect.gen(function*() {
    const notices = yield* pg.listen(channel)
    yield* onListening
    // Whatever changed before LISTEN was confirmed (at start, or while it was down) was not heard.
    yield* subscribers.deliverAll
    while (true) {
      const notice = decodeNotice((yield* Queue.take(notices)).payload)
      if (Option.isSome(notice) && notice.value.origin !== origin) {
        yield* subscribers.deliver(notice.value.topic, { _tag: "One", id: notice.value.id })
      }
    }
  }))

/** Listens again after any loss, with backoff; meanwhile the caches' TTL bounds how stale they get. */
const listenForever = (pg: PgClient, channel: string, origin: string, subscribers: Subscribers) =>
  Effect.gen(function*() {
    let attempt = 0
    let lost = false
    const onListening = Effect.suspend(() => {
      attempt = 0
      if (!lost) return Effect.void
      lost = false
      return Effect.logInfo("Hearing other instances' changes again")
    })
    while (true) {
      yield* listenOnce(pg, channel, origin, subscribers, onListening).pipe(
        Effect.catchCause((cause) => {
          if (lost) return Effect.void
          lost = true
          return Effect.logWarning(
            "Not hearing other instances' changes; caches fall back to their TTL until the connection returns",
            cause
          )
        })
      )
      yield* Effect.sleep(backoff(attempt++))
    }
  })
