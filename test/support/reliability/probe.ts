/**
 * Test-only preload for a gateway child process (`node --import probe.ts
 * src/main.ts`): answers `{type: "stats", id}` over the IPC channel with the
 * process's active resources by kind (timers, sockets, servers …) and its
 * memory, after a full collection when `--expose-gc` is on. The gateway's
 * sources are untouched; the IPC channel itself is one constant handle.
 */
interface StatsRequest {
  readonly type?: string
  readonly id?: number
}

const collect = (globalThis as { gc?: () => void }).gc

process.on("message", (message: StatsRequest) => {
  if (message.type !== "stats") return
  collect?.()
  const resources: Record<string, number> = {}
  for (const kind of process.getActiveResourcesInfo()) resources[kind] = (resources[kind] ?? 0) + 1
  process.send?.({ type: "stats", id: message.id, resources, memory: process.memoryUsage() })
})
// Never outlive the test that started it.
process.on("disconnect", () => process.exit(1))
