import type { UIMessageChunk } from "ai"
import { Console, Context, Effect, Layer, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeGateway } from "../app/gateway.ts"
import { ApiKeys } from "../auth/ApiKeys.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { startUpstream } from "../demo/upstream/server.ts"
import { ToolRegistry } from "../tools/ToolRegistry.ts"
import { wordCountTool } from "./demoTool.ts"

const QUESTION = "parley runs every tool on the server and streams each step back"

const describeChunk = (chunk: UIMessageChunk): string | undefined => {
  switch (chunk.type) {
    case "start-step":
      return "── model step ──"
    case "tool-input-available":
      return `  tool call   ${chunk.toolName}(${JSON.stringify(chunk.input)})`
    case "tool-output-available":
      return `  tool result ${JSON.stringify(chunk.output)}`
    case "text-delta":
      return `  text        ${JSON.stringify(chunk.delta)}`
    case "finish":
      return `── finish ── ${JSON.stringify(chunk.messageMetadata ?? {})}`
    case "error":
      return `  error       ${chunk.errorText}`
    default:
      return undefined
  }
}

/** Reads the SSE body and prints each chunk as it arrives. */
const printStream = (response: Response) =>
  Effect.promise(async () => {
    const decoder = new TextDecoder()
    let buffer = ""
    for await (const bytes of response.body!) {
      buffer += decoder.decode(bytes, { stream: true })
      let end: number
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const data = event.split("\n").find((line) => line.startsWith("data: "))?.slice(6)
        if (data === undefined || data === "[DONE]") continue
        const line = describeChunk(JSON.parse(data) as UIMessageChunk)
        if (line !== undefined) console.log(line)
      }
    }
  })

/**
 * `parley demo`: a scripted OpenAI-compatible provider, the gateway on a
 * fresh SQLite database, a new key, and one streamed conversation in which
 * the model calls a tool that parley runs.
 */
export const runDemo: Effect.Effect<void, unknown> = Effect.scoped(
  Effect.gen(function*() {
    yield* Console.error("1/4 starting a scripted model provider on loopback…")
    const upstream = yield* Effect.acquireRelease(
      Effect.promise(() => startUpstream()),
      (u) => Effect.promise(() => u.close())
    )
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "parley-demo-"))),
      (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
    )

    yield* Console.error("2/4 starting the gateway on a fresh SQLite database…")
    const context = yield* Layer.build(makeGateway({
      config: AppConfig.layerTest({
        providers: [{
          id: "demo",
          type: "openai-compatible",
          baseURL: upstream.url,
          apiKey: Redacted.make("demo-provider-key"),
          models: [{
            id: "scripted",
            name: "Scripted demo model",
            categories: ["chat", "tools"],
            contextWindow: 128_000
          }]
        }],
        databaseUrl: Redacted.make(`sqlite:${join(dir, "parley.db")}`)
      }),
      tools: Layer.succeed(ToolRegistry, ToolRegistry.make([wordCountTool])),
      quiet: true
    }))
    const address = Context.get(context, HttpServer.HttpServer).address
    const url = address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${address.port}`

    yield* Console.error("3/4 creating an API key allowed demo/scripted and word_count…")
    const { key, secret } = yield* Context.get(context, ApiKeys).create({
      name: "demo",
      allowedModels: ["demo/scripted"],
      allowedTools: ["word_count"]
    })
    yield* Console.error(`    key ${key.prefix}… (id ${key.id})`)

    yield* Console.error(`4/4 POST ${url}/api/v1/chat (stream=true)\n`)
    yield* Console.log(`user: ${QUESTION}\n`)
    const response = yield* Effect.promise(() =>
      fetch(`${url}/api/v1/chat`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: "demo/scripted",
          messages: [{ role: "user", content: QUESTION }],
          allowedTools: ["word_count"]
        })
      })
    )
    yield* Console.log(`HTTP ${response.status}, x-correlation-id ${response.headers.get("x-correlation-id")}`)
    yield* printStream(response)
    yield* Console.error(
      "\nDone. Start your own gateway with `npm start` and a provider in parley.config.json (docs/getting-started.md)."
    )
  })
)
