import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import http from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { doorOption, DOORS } from "./scenarios.ts"
import { full } from "./settings.ts"
import { startTarget } from "./setup.ts"

/**
 * `node bench/instructions.ts [json|stream|tools] [--door=ui|chat-completions|responses|messages] [--warmup=N] [--requests=N] [--sources] [--keep=FILE]`:
 * the gateway's machine instructions per request at concurrency 1 through one
 * of its doors (`ui`, `POST /api/v1/chat`, unless `--door` names another), counted
 * by valgrind's callgrind (all its threads, user space only: the kernel's
 * part of a socket write is not in it). Unlike CPU time, the count hardly
 * moves when other processes share the machine, so an A/B of a change needs
 * one run each. The gateway runs uninstrumented through the warm-up (so V8
 * has optimized the hot path), then `callgrind_control` turns counting on
 * for the measured requests. Needs `valgrind`; takes a few minutes. `--keep`
 * writes the measured dump to FILE, for `callgrind_annotate` to split by function.
 */
const args = process.argv.slice(2)
const option = (name: string, fallback: number) =>
  Number(args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback)
const scenario = args.find((arg) => !arg.startsWith("--")) ?? "json"
const warmup = option("warmup", 3_000)
const requests = option("requests", 500)
const doorName = doorOption(args)
const { body: doorBody } = DOORS[doorName]
const bodies: Record<string, string> = {
  json: doorBody.text(false),
  stream: doorBody.text(true),
  tools: doorBody.toolLoop()
}
const body = bodies[scenario]
if (body === undefined) throw new Error(`unknown scenario ${scenario}: use json, stream or tools`)

const outDir = mkdtempSync(join(tmpdir(), "parley-callgrind-"))
const wrapper = [
  "valgrind",
  "--tool=callgrind",
  "--instr-atstart=no",
  // V8 writes and rewrites machine code on the heap.
  "--smc-check=all-non-file",
  `--callgrind-out-file=${join(outDir, "callgrind.out.%p")}`
]
const target = await startTarget(full, { fromSources: args.includes("--sources"), wrapper })
const callgrind = (...flags: Array<string>) =>
  execFileSync("callgrind_control", [...flags, String(target.gateway.pid)], { stdio: "pipe" })

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const door = target.doors.find((door) => door.name === doorName)!
const url = new URL(door.url)
const send = () =>
  new Promise<void>((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      agent,
      headers: { ...door.headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
    }, (res) => {
      res.resume()
      res.once("end", () => res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)))
    })
    req.once("error", reject)
    req.end(body)
  })
const sendMany = async (count: number) => {
  for (let i = 0; i < count; i++) await send()
}

try {
  await sendMany(warmup)
  callgrind("--instr=on")
  callgrind("--zero")
  await sendMany(requests)
  callgrind("--dump=measured")
  callgrind("--instr=off")
  const dumps = readdirSync(outDir).map((file) => readFileSync(join(outDir, file), "utf8"))
  const measured = dumps.find((text) => /^desc: Trigger: Client Request: measured/m.test(text)) ??
    dumps.find((text) => text.includes("measured"))
  const total = Number(/^(?:totals|summary): (\d+)/m.exec(measured ?? "")?.[1])
  if (!Number.isFinite(total)) throw new Error("no callgrind dump of the measured requests")
  const keep = args.find((arg) => arg.startsWith("--keep="))?.slice("--keep=".length)
  if (keep !== undefined) writeFileSync(keep, measured!)
  console.log(
    JSON.stringify({ scenario, door: doorName, warmup, requests, instructionsPerRequest: Math.round(total / requests) })
  )
} finally {
  agent.destroy()
  await target.stop()
  rmSync(outDir, { recursive: true, force: true })
}
