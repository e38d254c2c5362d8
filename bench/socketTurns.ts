import http from "node:http"
import { WebSocket } from "ws"
import { numberOption, PROVIDER } from "./scenarios.ts"
import { full } from "./settings.ts"
import { startTarget } from "./setup.ts"
import { median } from "./stats.ts"

/**
 * `node bench/socketTurns.ts [--warmup=N] [--block=N] [--rounds=N] [--turns=N] [--cpu-prof=DIR] [--sources]`:
 * the gateway's CPU time (user + system) per turn of a Codex-shaped session
 * on `/v1/responses` at concurrency 1, as Codex runs one over HTTP and over a
 * WebSocket, in blocks of `--block` sessions (default 60) taken in turn over
 * `--rounds` rounds (default 12), as `cpuBlocks.ts` takes them (issue 34: a
 * Codex turn over the WebSocket costs no more than over HTTP). A session is
 * `--turns` turns (default 6): Codex's instructions (about 17 KB), its
 * function tools, unstored; each turn adds the answer and a new prompt.
 * Over HTTP each turn posts the whole conversation (as Codex does); over
 * the WebSocket the first sends it whole and each next one continues the
 * last response (`previous_response_id`, the new prompt alone), on one
 * connection. Also `same body`: every turn over the WebSocket sending the
 * whole conversation, the transport alone. `--cpu-prof`: the gateway's CPU
 * profile into DIR; `--sources`: the gateway from its TypeScript.
 */
const args = process.argv.slice(2)
const [warmup, block, rounds, turns] = [
  numberOption(args, "warmup", 150),
  numberOption(args, "block", 60),
  numberOption(args, "rounds", 12),
  numberOption(args, "turns", 6)
]

const parameters = {
  type: "object",
  properties: { cmd: { type: "string", description: "Shell command to execute." } },
  required: ["cmd"],
  additionalProperties: false
}
const text = (role: string, value: string) => ({
  type: "message",
  role,
  content: [{ type: role === "assistant" ? "output_text" : "input_text", text: value }]
})
const settings = {
  model: `${PROVIDER}/text`,
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
  prompt_cache_key: "bench-session",
  stream: true
}
const opening = [
  text("developer", "You are a coding agent. ".repeat(700)),
  text("user", "<environment_context>/work</environment_context>")
]
const prompt = (turn: number) => text("user", `Prompt ${turn}: what next?`)

const cpuProfileDir = args.find((arg) => arg.startsWith("--cpu-prof="))?.slice("--cpu-prof=".length)
const target = await startTarget(full, { cpuProfileDir, fromSources: args.includes("--sources") })
const door = target.doors.find((each) => each.name === "responses")!
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

// The last response a stream carried: its `response.completed` data.
const COMPLETED = /^data: (\{"type":"response\.completed".*)$/m
const completed = (data: string) => (JSON.parse(data) as { response: { id: string; output: Array<unknown> } }).response

const postTurn = (body: string) =>
  new Promise<ReturnType<typeof completed>>((resolve, reject) => {
    const req = http.request(new URL(door.url), {
      method: "POST",
      agent,
      headers: { ...door.headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
    }, (res) => {
      let answer = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => answer += chunk)
      res.once("end", () => {
        const found = COMPLETED.exec(answer)?.[1]
        if (res.statusCode !== 200 || found === undefined) reject(new Error(`status ${res.statusCode}: ${answer}`))
        else resolve(completed(found))
      })
    })
    req.once("error", reject)
    req.end(body)
  })

const socket = new WebSocket(door.url.replace(/^http/, "ws"), { headers: door.headers })
await new Promise((resolve, reject) => {
  socket.once("open", resolve)
  socket.once("error", reject)
})
let turnEnded: ((data: string) => void) | undefined
socket.on("message", (data) => {
  const message = data.toString()
  if (message.startsWith(`{"type":"response.completed"`)) turnEnded?.(message)
  else if (message.startsWith(`{"type":"error"`) || message.startsWith(`{"type":"response.failed"`)) {
    throw new Error(`a turn failed: ${message.slice(0, 300)}`)
  }
})
const socketTurn = (message: unknown) =>
  new Promise<ReturnType<typeof completed>>((resolve) => {
    turnEnded = (data) => resolve(completed(data))
    socket.send(JSON.stringify({ type: "response.create", ...(message as object) }))
  })

/** One session as Codex runs it: `send` gets the whole conversation and the last response, and says what it sends. */
const session = async (
  send: (conversation: Array<unknown>, last: ReturnType<typeof completed> | undefined, turn: number) => Promise<
    ReturnType<typeof completed>
  >
) => {
  const conversation: Array<unknown> = [...opening]
  let last: ReturnType<typeof completed> | undefined
  for (let turn = 0; turn < turns; turn++) {
    conversation.push(prompt(turn))
    last = await send(conversation, last, turn)
    conversation.push(...last.output)
  }
}

const ways: ReadonlyArray<readonly [string, () => Promise<void>]> = [
  ["http", () => session((conversation) => postTurn(JSON.stringify({ ...settings, input: conversation })))],
  ["websocket", () =>
    session((conversation, last, turn) =>
      socketTurn(
        last === undefined
          ? { ...settings, input: conversation }
          : { ...settings, previous_response_id: last.id, input: [prompt(turn)] }
      )
    )],
  ["websocket, same body", () => session((conversation) => socketTurn({ ...settings, input: conversation }))]
]
const cpuMicros = () => door.gateway.ask<{ cpuMicros: number }>({ type: "stats" })
const sessions = async (run: () => Promise<void>, count: number) => {
  for (let i = 0; i < count; i++) await run()
}
try {
  for (const [, run] of ways) await sessions(run, warmup)
  const blocks = new Map(ways.map(([name]) => [name, [] as Array<number>]))
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < ways.length; i++) {
      const [name, run] = ways[(round + i) % ways.length]!
      const before = await cpuMicros()
      await sessions(run, block)
      const after = await cpuMicros()
      blocks.get(name)!.push((after.cpuMicros - before.cpuMicros) / 1000 / (block * turns))
      process.stderr.write(".")
    }
  }
  process.stderr.write("\n")
  const perTurn = Object.fromEntries([...blocks].map(([name, each]) => [name, median(each)]))
  console.log(JSON.stringify({
    warmup,
    block,
    rounds,
    turns,
    cpuMsPerTurn: perTurn,
    "websocket / http": perTurn["websocket"]! / perTurn["http"]!,
    "websocket, same body / http": perTurn["websocket, same body"]! / perTurn["http"]!,
    perBlock: Object.fromEntries(blocks)
  }))
} finally {
  socket.close()
  agent.destroy()
  await target.stop()
}
