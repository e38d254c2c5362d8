import { Effect, Option, Semaphore } from "effect"
import { toMcpServerConfig } from "../config/McpServerConfig.ts"
import type { Change } from "../store/ChangeFeed.ts"
import type { McpRegistry } from "./McpRegistry.ts"
import type { McpServerStore, StoredMcpServer } from "./McpServerStore.ts"

/**
 * Keeps this instance's registry in step with `mcp_servers` (docs/DESIGN.md
 * §9, §8 "Many instances"): on a change of one server it reads that row again,
 * on `All` every row, and registers, replaces or removes servers whose
 * revision differs from what it holds. Unchanged servers keep their
 * connection and their held-back tools. A change of a config-file server can
 * only be a refresh, which each instance carries out itself.
 */
export const makeStoredServerSync = Effect.fnUntraced(function*(
  registry: McpRegistry["Service"],
  store: McpServerStore["Service"],
  configIds: ReadonlySet<string>
) {
  const oneAtATime = yield* Semaphore.make(1)
  // id → the revision registered here.
  const registered = new Map<string, string>()
  const warned = new Set<string>()

  const apply = (id: string, stored: StoredMcpServer | undefined) =>
    Effect.gen(function*() {
      if (stored !== undefined && stored.enabled && stored.unreadable.length > 0 && !warned.has(stored.revision)) {
        warned.add(stored.revision)
        yield* Effect.logError(
          `MCP server ${id} is not used: its header(s) ${
            stored.unreadable.join(", ")
          } were encrypted under another PARLEY_SECRET_KEY; set them again (PATCH /admin/v1/mcp-servers/${id})`
        )
      }
      if (stored === undefined || !stored.enabled || stored.unreadable.length > 0) {
        if (!registered.delete(id)) return
        yield* registry.remove(id)
        return
      }
      if (registered.get(id) === stored.revision) return
      registered.set(id, stored.revision)
      yield* registry.add(toMcpServerConfig({ id, url: stored.url, headers: stored.headers }))
    })

  const all = Effect.gen(function*() {
    const rows = (yield* Effect.orDie(store.list)).filter((row) => !configIds.has(row.id))
    for (const row of rows) yield* apply(row.id, row)
    const present = new Set(rows.map((row) => row.id))
    for (const id of [...registered.keys()].filter((id) => !present.has(id))) yield* apply(id, undefined)
  })

  const one = (id: string) =>
    configIds.has(id)
      ? Effect.ignore(registry.refresh(id))
      : Effect.flatMap(Effect.orDie(store.get(id)), (found) => apply(id, Option.getOrUndefined(found)))

  return {
    /** Registers every stored server (at startup), warning of any the config file's servers shadow. */
    load: oneAtATime.withPermits(1)(Effect.gen(function*() {
      for (const row of yield* Effect.orDie(store.list)) {
        if (configIds.has(row.id)) {
          yield* Effect.logWarning(`MCP server ${row.id} of the store is not used: the config file names the same id`)
        }
      }
      yield* all
    })),
    onChange: (change: Change) => oneAtATime.withPermits(1)(change._tag === "All" ? all : one(change.id))
  }
})
