const gc = (globalThis as any).gc
if (process.argv[2] === "barrel") await import("@effect/platform-node")
await import("../../src/server.ts")
gc(); gc()
const m = process.memoryUsage()
console.log(process.argv[2] ?? "deep", "rss", (m.rss / 1048576).toFixed(0), "heap", (m.heapUsed / 1048576).toFixed(0))
