import { Context, Effect, Layer, type Scope } from "effect"

/**
 * What one instance changes and the others must hear about to drop their
 * caches (docs/DESIGN.md §8 "Many instances"): API keys, accounts, MCP servers;
 * and the runs a client asked to stop, which the instance running one ends (§16).
 */
export const changeTopics = ["keys", "accounts", "mcp-servers", "run-stops"] as const
export type ChangeTopic = typeof changeTopics[number]

/** One record of the topic changed, or any may have (notifications were missed: drop everything). */
export type Change = { readonly _tag: "One"; readonly id: string } | { readonly _tag: "All" }

export type ChangeHandler = (change: Change) => Effect.Effect<void>

/**
 * The change channel between instances. `publish` tells this instance's
 * subscribers before it returns (so an admin answer is never followed by a
 * stale read here), then, on Postgres, every other instance through
 * `LISTEN/NOTIFY` (store/postgresChangeFeed.ts). It never fails: a change that
 * cannot be announced still reaches the other instances when their cache
 * entries expire, which is why every subscriber's cache keeps a TTL.
 */
export class ChangeFeed extends Context.Service<ChangeFeed, {
  readonly publish: (topic: ChangeTopic, id: string) => Effect.Effect<void>
  /** `handler` hears every change of `topic` until the scope closes. */
  readonly subscribe: (topic: ChangeTopic, handler: ChangeHandler) => Effect.Effect<void, never, Scope.Scope>
}>()("parley/store/ChangeFeed") {
  /** One process (SQLite): subscribers in this process hear its changes; the CLI's reach a server by the TTL. */
  static readonly layerLocal = Layer.sync(ChangeFeed, () => {
    const hub = makeSubscribers()
    return ChangeFeed.of({ publish: (topic, id) => hub.deliver(topic, { _tag: "One", id }), subscribe: hub.subscribe })
  })
}

export interface Subscribers {
  readonly deliver: (topic: ChangeTopic, change: Change) => Effect.Effect<void>
  readonly deliverAll: Effect.Effect<void>
  readonly subscribe: (topic: ChangeTopic, handler: ChangeHandler) => Effect.Effect<void, never, Scope.Scope>
}

/** This process's handlers by topic. A failing handler is logged and never stops the others. */
export const makeSubscribers = (): Subscribers => {
  const handlers = new Map<ChangeTopic, Set<ChangeHandler>>(changeTopics.map((topic) => [topic, new Set()]))
  const deliver = (topic: ChangeTopic, change: Change) =>
    Effect.forEach(handlers.get(topic) ?? [], (handler) =>
      handler(change).pipe(
        Effect.catchCause((cause) =>
          Effect.logError("A change handler failed", cause).pipe(Effect.annotateLogs({ topic }))
        )
      ), { discard: true })
  return {
    deliver,
    deliverAll: Effect.forEach(changeTopics, (topic) => deliver(topic, { _tag: "All" }), { discard: true }),
    subscribe: (topic, handler) =>
      Effect.acquireRelease(
        Effect.sync(() => handlers.get(topic)?.add(handler)),
        () => Effect.sync(() => handlers.get(topic)?.delete(handler))
      ).pipe(Effect.asVoid)
  }
}
