import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider"
import { Effect, Stream } from "effect"
import { Agent } from "../../src/agent/Agent.ts"
import { initialPrompt } from "../../src/agent/history.ts"
import { collectMessage } from "../../src/agent/collectMessage.ts"
import { decodeChatRequest } from "../../src/domain/ChatRequest.ts"
import { normalizeMessages } from "../../src/domain/Message.ts"
import { makeKey } from "../../test/support/keys.ts"
import { encodeChunk } from "../../src/http/sse.ts"

const parts: Array<LanguageModelV4StreamPart> = [
  { type: "stream-start", warnings: [] },
  { type: "response-metadata", id: "x", modelId: "m", timestamp: new Date() },
  { type: "text-start", id: "0" },
  ...Array.from({ length: 20 }, (_, i) => ({ type: "text-delta" as const, id: "0", delta: `word${i} ` })),
  { type: "text-end", id: "0" },
  { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } } } as any
]
const model: LanguageModelV4 = {
  specificationVersion: "v4", provider: "bench.chat", modelId: "m", supportedUrls: {},
  doGenerate: () => { throw new Error("no") },
  doStream: async () => ({ stream: new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close() } }) })
} as any
const time = async (label: string, n: number, fn: () => Promise<unknown> | unknown) => {
  for (let i = 0; i < 2000; i++) await fn()
  const c0 = process.cpuUsage()
  for (let i = 0; i < n; i++) await fn()
  const c = process.cpuUsage(c0)
  console.log(label.padEnd(34), ((c.user + c.system) / 1000 / n * 1000).toFixed(1), "µs cpu/iter")
}
const N = 10000
const body = { model: "test/m1", messages: [{ role: "user", content: "Hello, how are you today?" }], stream: false }
await time("JSON.parse body", N, () => JSON.parse(JSON.stringify(body)))
await time("decodeChatRequest", N, () => Effect.runSync(decodeChatRequest(body)))
const decoded = Effect.runSync(decodeChatRequest(body))
const messages = normalizeMessages(decoded.messages)
await time("initialPrompt", N, () => Effect.runPromise(initialPrompt(model, "bench", "You are helpful", messages)))
await time("raw doStream read", N, async () => { const { stream } = await model.doStream({} as any); const r = stream.getReader(); for (;;) { if ((await r.read()).done) break } })
const agent = Effect.runSync(Effect.service(Agent).pipe(Effect.provide(Agent.layer)))
const run = { model, provider: "bench", system: "You are helpful", messages, tools: [], sandboxId: null, key: makeKey(), maxSteps: 30, timeout: "300 seconds", maxOutputTokens: undefined } as const
await time("Agent.collect", N, () => Effect.runPromise(agent.collect(run)))
await time("Agent.stream runCollect", N, () => Effect.runPromise(Stream.runCollect(agent.stream(run))))
const chunks = await Effect.runPromise(Stream.runCollect(agent.stream(run)))
await time("collectMessage", N, () => collectMessage(chunks))
await time("encode SSE", N, () => { let s = ""; for (const c of chunks) s += encodeChunk(c); return s })
import { runAgent } from "../../src/agent/runAgent.ts"
await time("runAgent array emit", N, () => { const out: Array<unknown> = []; return Effect.runPromise(runAgent(run, (c) => void out.push(c))) })
await time("Effect.runPromise(void)", N, () => Effect.runPromise(Effect.void))
await time("timeoutOption(void)", N, () => Effect.runPromise(Effect.timeoutOption(Effect.void, "300 seconds")))
await time("tryPromise(resolve)", N, () => Effect.runPromise(Effect.tryPromise({ try: async (_s) => 1, catch: (e) => e })))
const fnTraced = Effect.fn("x")(function*() { return 1 })
await time("Effect.fn traced", N, () => Effect.runPromise(fnTraced()))
