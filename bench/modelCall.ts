/**
 * One streamed model call, the AI SDK's openai-compatible model against
 * parley's own, in one process with the scripted upstream:
 *
 *   node_modules/.bin/node bench/modelCall.ts [calls per run] [rounds] [in-flight calls]
 *
 * CPU per call: a 20-chunk answer read to its end, calls one after another,
 * `process.cpuUsage` over the run divided by the calls. It includes the
 * in-process upstream's share (the same for every variant), so differences
 * between variants are the client's; variant 0 (the request sent, the
 * response's bytes dropped unparsed) is that floor. Variants alternate
 * (0 A B B', 0 A B B' …) after a warm-up so machine drift hits all alike.
 *
 * Heap per in-flight call: that many calls opened at once, each holding its
 * first parsed event while the upstream waits before the next; live heap after a full GC,
 * minus the idle heap, divided by the calls. It includes the upstream's
 * half of each connection (again the same for every variant).
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { startUpstream } from "../src/demo/upstream/server.ts"
import type { Reply } from "../src/demo/upstream/types.ts"
import { nodeFetch } from "../src/models/nodeFetch.ts"
import { OpenAICompatibleChatModel } from "../src/models/openaiCompatible/OpenAICompatibleChatModel.ts"
import { send } from "../src/net/httpClient.ts"
import { median, round } from "./stats.ts"

const [calls = 2_000, rounds = 5, inFlight = 500] = process.argv.slice(2).map(Number)

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

// Twenty pieces of seven characters: twenty text deltas.
const TEXT = Array.from({ length: 20 }, (_, i) => `word${String(i).padStart(2, "0")} `).join("")
const answer: Reply = { type: "text", text: TEXT, chunks: 20 }
const waiting: Reply = { type: "text", text: TEXT, chunks: 20, chunkDelayMs: 600_000 }

const upstream = await startUpstream({ recordRequests: false })
let next = answer
upstream.respondWith(() => next)

const sdk = createOpenAICompatible({ name: "local", baseURL: upstream.url, includeUsage: true, fetch: nodeFetch })
  .chatModel("demo")
const mine = new OpenAICompatibleChatModel({ provider: "local", baseURL: upstream.url, modelId: "demo" })
const options: LanguageModelV4CallOptions = {
  prompt: [{ role: "user", content: [{ type: "text", text: "Say twenty words." }] }]
}

/** Reads a doStream call; resolves with the part count once `stopAfter` parts arrived, or at the end. */
const viaDoStream = async (model: LanguageModelV4, call: LanguageModelV4CallOptions, stopAfter = Infinity) => {
  const { stream } = await model.doStream(call)
  const reader = stream.getReader()
  let parts = 0
  while (parts < stopAfter) {
    const next = await reader.read()
    if (next.done) break
    parts++
  }
  return parts
}

const viaRead = async (call: LanguageModelV4CallOptions, stopAfter = Infinity) => {
  const stream = await mine.openStream(call)
  let parts = 0
  return new Promise<number>((resolve, reject) => {
    stream.read(() => {
      if (++parts === stopAfter) resolve(parts)
    }).then(() => resolve(parts), reject)
  })
}

/** The floor: the same request over the same agent, the response's bytes counted and dropped. */
const rawHttp = async (call: LanguageModelV4CallOptions, stopAfter = Infinity) => {
  const body = JSON.stringify({
    model: "demo",
    messages: [{ role: "user", content: "Say twenty words." }],
    stream: true,
    stream_options: { include_usage: true }
  })
  const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
  const { request, response } = await send(new URL(`${upstream.url}/chat/completions`), {
    method: "POST",
    headers,
    body,
    signal: call.abortSignal
  })
  call.abortSignal?.addEventListener("abort", () => request.destroy(), { once: true })
  let chunks = 0
  return new Promise<number>((resolve, reject) => {
    response.on("data", () => {
      if (++chunks === stopAfter) resolve(chunks)
    })
    response.once("end", () => resolve(chunks))
    response.once("error", reject)
  })
}

interface Variant {
  readonly name: string
  readonly run: (call: LanguageModelV4CallOptions, stopAfter?: number) => Promise<number>
}

const variants: ReadonlyArray<Variant> = [
  {
    name: "0  node:http, bytes dropped",
    run: (call, stopAfter) => rawHttp(call, stopAfter === undefined ? Infinity : 1)
  },
  { name: "A  AI SDK doStream (nodeFetch)", run: (call, stopAfter) => viaDoStream(sdk, call, stopAfter) },
  { name: "B  parley openStream + read", run: viaRead },
  { name: "B' parley doStream", run: (call, stopAfter) => viaDoStream(mine, call, stopAfter) }
]

/** CPU and wall time per call, in µs, over `calls` sequential calls. */
const cpuPerCall = async (variant: Variant) => {
  next = answer
  const start = process.cpuUsage()
  const wall = performance.now()
  for (let i = 0; i < calls; i++) await variant.run(options)
  const used = process.cpuUsage(start)
  return { cpu: (used.user + used.system) / calls, wall: ((performance.now() - wall) * 1000) / calls }
}

const liveHeap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** Live heap per call while `inFlight` calls each hold their first event. */
const heapPerCall = async (variant: Variant) => {
  next = waiting
  const idle = liveHeap()
  const controllers = Array.from({ length: inFlight }, () => new AbortController())
  const opened = controllers.map((controller) =>
    // stream-start, then response-metadata from the first event: the upstream waits after it.
    variant.run({ ...options, abortSignal: controller.signal }, 2).catch(() => 0)
  )
  await Promise.all(opened)
  const held = liveHeap()
  for (const controller of controllers) controller.abort()
  await new Promise((resolve) => setTimeout(resolve, 200))
  return (held - idle) / inFlight
}

// stream-start, response-metadata, text-start, twenty deltas, text-end, finish.
for (const variant of variants.slice(1)) {
  if ((await variant.run(options)) !== 25) throw new Error(`${variant.name}: not the whole answer`)
}

const results = new Map(
  variants.map((variant) => [variant.name, { cpu: [] as Array<number>, wall: [] as Array<number> }])
)
console.log(`warm-up, then ${rounds} rounds of ${calls} calls per variant (20-chunk answer, upstream in-process)`)
for (const variant of variants) await cpuPerCall(variant)
for (let round = 0; round < rounds; round++) {
  for (const variant of variants) {
    const { cpu, wall } = await cpuPerCall(variant)
    results.get(variant.name)!.cpu.push(cpu)
    results.get(variant.name)!.wall.push(wall)
  }
}

console.log("\nCPU per call, µs (client + in-process upstream), median [min … max] of rounds; wall per call, µs")
for (const [name, { cpu, wall }] of results) {
  const range = `[${round(Math.min(...cpu), 0)} … ${round(Math.max(...cpu), 0)}]`
  console.log(
    `  ${name.padEnd(32)} ${String(round(median(cpu), 0)).padStart(5)} ${range.padEnd(14)} wall ${
      round(median(wall), 0)
    }`
  )
}

console.log(
  `\nlive heap per in-flight call, KB (${inFlight} calls, upstream's side included), median of ${rounds} runs`
)
const heaps = new Map(variants.map((variant) => [variant.name, [] as Array<number>]))
for (let round = 0; round < rounds; round++) {
  for (const variant of variants) heaps.get(variant.name)!.push(await heapPerCall(variant))
}
for (const [name, values] of heaps) console.log(`  ${name.padEnd(32)} ${round(median(values) / 1024, 1)}`)

await upstream.close()
