import { WebSocket } from "ws"
import { numberOption, PROVIDER } from "./scenarios.ts"
import { sequential } from "./sequential.ts"
import { full } from "./settings.ts"
import { startTarget } from "./setup.ts"
import { median } from "./stats.ts"

/**
 * `node bench/socketTurns.ts [--warmup=N] [--block=N] [--rounds=N] [--cpu-prof=DIR]`: the
 * gateway's CPU time (user + system) per Codex-shaped turn of
 * `/v1/responses` at concurrency 1, over HTTP (one `POST` each, on one
 * kept-alive connection) and over one WebSocket (one `response.create`
 * message each), the same body, in blocks of `--block` turns (default 500)
 * taken in turn over `--rounds` rounds (default 12), as `cpuBlocks.ts`
 * takes them; each way's median block and the WebSocket's ratio to HTTP
 * (issue 34: a Codex turn over the WebSocket costs no more than over HTTP).
 * `--cpu-prof`: the gateway's CPU profile into DIR (`bench/topFunctions.ts` reads it).
 */
const args = process.argv.slice(2)
const [warmup, block, rounds] = [
  numberOption(args, "warmup", 2_000),
  numberOption(args, "block", 500),
  numberOption(args, "rounds", 12)
]

// What Codex sends a turn (test/clients/codexWebsocket.test.ts saw it): its instructions as a developer message
// (about 17 KB), its environment, the user's prompt, its function tools, unstored.
const parameters = {
  type: "object",
  properties: { cmd: { type: "string", description: "Shell command to execute." } },
  required: ["cmd"],
  additionalProperties: false
}
const turn = {
  model: `${PROVIDER}/text`,
  input: [
    {
      type: "message",
      role: "developer",
      content: [{ type: "input_text", text: "You are a coding agent. ".repeat(700) }]
    },
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<environment_context>/work</environment_context>" }]
    },
    { type: "message", role: "user", content: [{ type: "input_text", text: "Hello, how are you today?" }] }
  ],
  tools: ["exec_command", "write_stdin", "apply_patch", "view_image", "update_plan", "web_search"].map((name) => ({
    type: "function",
    name,
    description: `Codex's ${name} tool.`,
    strict: false,
    parameters
  })),
  tool_choice: "auto",
  parallel_tool_calls: false,
  store: false,
  include: [],
  prompt_cache_key: "bench-session"
}
const httpBody = JSON.stringify({ ...turn, stream: true })
const socketMessage = JSON.stringify({ type: "response.create", ...turn, stream: true })

const cpuProfileDir = args.find((arg) => arg.startsWith("--cpu-prof="))?.slice("--cpu-prof=".length)
const target = await startTarget(full, { cpuProfileDir })
const door = target.doors.find((each) => each.name === "responses") ??
  (() => {
    throw new Error("the bench target has no responses door")
  })()
const requester = sequential()
const socket = new WebSocket(door.url.replace(/^http/, "ws"), { headers: door.headers })
await new Promise((resolve, reject) => {
  socket.once("open", resolve)
  socket.once("error", reject)
})
let turnEnded: (() => void) | undefined
socket.on("message", (data) => {
  const text = data.toString()
  if (text.startsWith(`{"type":"response.completed"`)) turnEnded?.()
  else if (text.startsWith(`{"type":"error"`) || text.startsWith(`{"type":"response.failed"`)) {
    throw new Error(`a turn failed: ${text.slice(0, 300)}`)
  }
})
const overSocket = async (count: number) => {
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve) => {
      turnEnded = resolve
      socket.send(socketMessage)
    })
  }
}
const ways: ReadonlyArray<readonly [string, (count: number) => Promise<void>]> = [
  ["http", (count) => requester.sendMany(door, httpBody, count)],
  ["websocket", overSocket]
]
const cpuMicros = () => door.gateway.ask<{ cpuMicros: number }>({ type: "stats" })
try {
  for (const [, send] of ways) await send(warmup)
  const blocks = new Map(ways.map(([name]) => [name, [] as Array<number>]))
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < ways.length; i++) {
      const [name, send] = ways[(round + i) % ways.length]!
      const before = await cpuMicros()
      await send(block)
      const after = await cpuMicros()
      blocks.get(name)!.push((after.cpuMicros - before.cpuMicros) / 1000 / block)
      process.stderr.write(".")
    }
  }
  process.stderr.write("\n")
  const perTurn = Object.fromEntries([...blocks].map(([name, each]) => [name, median(each)]))
  console.log(JSON.stringify({
    warmup,
    block,
    rounds,
    bodyBytes: Buffer.byteLength(httpBody),
    cpuMsPerTurn: perTurn,
    "websocket / http": perTurn.websocket! / perTurn.http!,
    perBlock: Object.fromEntries(blocks)
  }))
} finally {
  socket.close()
  requester.close()
  await target.stop()
}
