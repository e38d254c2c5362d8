const gc = (globalThis as any).gc
const used = () => { gc(); gc(); return process.memoryUsage() }
let last = used()
const step = async (label: string, f: () => Promise<unknown>) => {
  await f(); const m = used()
  console.log(label.padEnd(40), "heap +", ((m.heapUsed - last.heapUsed) / 1048576).toFixed(1), "rss +", ((m.rss - last.rss) / 1048576).toFixed(1), "total rss", (m.rss / 1048576).toFixed(0))
  last = m
}
await step("effect", () => import("effect"))
await step("effect/http", () => import("effect/http"))
await step("effect/http-api", () => import("effect/http-api"))
await step("@effect/platform-node", () => import("@effect/platform-node"))
await step("effect/sql", () => import("effect/sql"))
await step("ai", () => import("ai"))
await step("ai/internal", () => import("ai/internal"))
await step("zod", () => import("zod"))
await step("@ai-sdk/openai-compatible", () => import("@ai-sdk/openai-compatible"))
await step("@ai-sdk/openai", () => import("@ai-sdk/openai"))
await step("@ai-sdk/anthropic", () => import("@ai-sdk/anthropic"))
await step("gpt-tokenizer cl100k", () => import("gpt-tokenizer/encoding/cl100k_base"))
await step("gpt-tokenizer o200k", () => import("gpt-tokenizer/encoding/o200k_base"))
await step("src/prune/Pruner", () => import("../../src/prune/Pruner.ts"))
await step("src/tools/ToolRegistry", () => import("../../src/tools/ToolRegistry.ts"))
await step("src/server", () => import("../../src/server.ts"))
