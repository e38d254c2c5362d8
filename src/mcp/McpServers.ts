import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import type { McpServerView } from "../domain/views.ts"
import { ChangeFeed } from "../store/ChangeFeed.ts"
import { McpServerExists, McpServerFromConfig, McpServerNotFound } from "./mcpErrors.ts"
import { McpRegistry } from "./McpRegistry.ts"
import { type McpServerInput, McpServerStore, type StoredMcpServer } from "./McpServerStore.ts"
import { configRegistration, storedRegistration, viewOf } from "./serverView.ts"
import { makeStoredServerSync } from "./storedServerSync.ts"

/** How stale an instance that hears no notifications may be about the stored servers (docs/DESIGN.md §8). */
const RESYNC = "1 minute"

export interface NewMcpServer {
  readonly id: string
  readonly url: string
  readonly headers?: Readonly<Record<string, string>> | undefined
}

export interface McpServerChanges {
  readonly url?: string | undefined
  /** Replaces every header; `{}` sends none. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly enabled?: boolean | undefined
}

/**
 * The operator's MCP servers (docs/DESIGN.md §9): the config file's, read-only
 * here, and those registered through the admin API, kept in `mcp_servers`.
 * Every change is written to the store, then announced on the change feed;
 * each instance, this one included (before `publish` returns), registers
 * what the store now says (mcp/storedServerSync.ts).
 */
export class McpServers extends Context.Service<McpServers, {
  readonly list: Effect.Effect<ReadonlyArray<McpServerView>>
  readonly get: (id: string) => Effect.Effect<McpServerView, McpServerNotFound>
  readonly create: (input: NewMcpServer) => Effect.Effect<McpServerView, McpServerExists>
  readonly update: (
    id: string,
    changes: McpServerChanges
  ) => Effect.Effect<McpServerView, McpServerNotFound | McpServerFromConfig>
  readonly remove: (id: string) => Effect.Effect<void, McpServerNotFound | McpServerFromConfig>
  /** Accepts changed input schemas (releasing held-back tools) on every instance, and lists again. */
  readonly refresh: (id: string) => Effect.Effect<McpServerView, McpServerNotFound>
}>()("parley/mcp/McpServers") {
  static readonly layer = Layer.effect(
    McpServers,
    Effect.gen(function*() {
      const registry = yield* McpRegistry
      const store = yield* McpServerStore
      const feed = yield* ChangeFeed
      const configured = new Map((yield* AppConfig).mcpServers.map((server) => [server.id, server]))
      const sync = yield* makeStoredServerSync(registry, store, new Set(configured.keys()))
      yield* sync.load
      yield* feed.subscribe("mcp-servers", sync.onChange)
      // The fallback when notifications do not arrive (no LISTEN): the store is read again now and then.
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(RESYNC), sync.onChange({ _tag: "All" }))))

      const storedView = (server: StoredMcpServer) => viewOf(registry, storedRegistration(server), server.unreadable)
      const found = (id: string, stored: Option.Option<StoredMcpServer>) =>
        Option.match(stored, { onNone: () => Effect.fail(new McpServerNotFound({ id })), onSome: storedView })
      const fromConfig = (id: string) => configured.has(id) ? Effect.fail(new McpServerFromConfig({ id })) : Effect.void
      const announce = (id: string) => feed.publish("mcp-servers", id)

      const get = Effect.fn("McpServers.get")(function*(id: string) {
        const server = configured.get(id)
        if (server !== undefined) return yield* viewOf(registry, configRegistration(server))
        return yield* found(id, yield* Effect.orDie(store.get(id)))
      })

      const create = Effect.fn("McpServers.create")(function*(input: NewMcpServer) {
        if (configured.has(input.id)) return yield* new McpServerExists({ id: input.id, source: "config" })
        if (Option.isSome(yield* Effect.orDie(store.get(input.id)))) {
          return yield* new McpServerExists({ id: input.id, source: "api" })
        }
        const stored = yield* Effect.orDie(
          store.insert(input.id, { url: input.url, headers: input.headers ?? {}, enabled: true })
        )
        yield* announce(input.id)
        return yield* storedView(stored)
      })

      const update = Effect.fn("McpServers.update")(function*(id: string, changes: McpServerChanges) {
        yield* fromConfig(id)
        const written: Partial<McpServerInput> = {
          ...(changes.url === undefined ? {} : { url: changes.url }),
          ...(changes.headers === undefined ? {} : { headers: changes.headers }),
          ...(changes.enabled === undefined ? {} : { enabled: changes.enabled })
        }
        const updated = yield* Effect.orDie(store.update(id, written))
        if (Option.isSome(updated)) yield* announce(id)
        return yield* found(id, updated)
      })

      const remove = Effect.fn("McpServers.remove")(function*(id: string) {
        yield* fromConfig(id)
        if (!(yield* Effect.orDie(store.remove(id)))) return yield* new McpServerNotFound({ id })
        yield* announce(id)
      })

      const refresh = Effect.fn("McpServers.refresh")(function*(id: string) {
        if (configured.has(id)) {
          yield* announce(id)
          return yield* get(id)
        }
        // A new revision: every instance connects afresh, accepting the tools' schemas as they are now.
        const touched = yield* Effect.orDie(store.update(id, {}))
        if (Option.isSome(touched)) yield* announce(id)
        return yield* found(id, touched)
      })

      const list = Effect.gen(function*() {
        const stored = (yield* Effect.orDie(store.list)).filter((server) => !configured.has(server.id))
        return yield* Effect.all([
          ...Array.from(configured.values(), (server) => viewOf(registry, configRegistration(server))),
          ...stored.map(storedView)
        ], { concurrency: "unbounded" })
      })

      return McpServers.of({ list, get, create, update, remove, refresh })
    })
  ).pipe(Layer.provide(McpServerStore.layer))
}
