const gc = (globalThis as any).gc
const used = () => { gc(); gc(); return process.memoryUsage() }
let last = used()
const step = async (label: string, f: () => Promise<unknown>) => {
  await f(); const m = used()
  console.log(label.padEnd(40), "heap +", ((m.heapUsed - last.heapUsed) / 1048576).toFixed(1), "rss +", ((m.rss - last.rss) / 1048576).toFixed(1), "total rss", (m.rss / 1048576).toFixed(0))
  last = m
}
await step("effect", () => import("effect"))
await step("deep NodeHttpServer+Runtime+FS", () => Promise.all([import("@effect/platform-node/NodeHttpServer"), import("@effect/platform-node/NodeRuntime"), import("@effect/platform-node/NodeFileSystem")]))
await step("@effect/platform-node barrel", () => import("@effect/platform-node"))
