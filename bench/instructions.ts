import { execFileSync } from "node:child_process"
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Split, splitDump } from "./callgrindSplit.ts"
import { DOORS, doorsOption, numberOption } from "./scenarios.ts"
import { sequential } from "./sequential.ts"
import { full } from "./settings.ts"
import { startTarget } from "./setup.ts"

/**
 * `node bench/instructions.ts [json|stream|tools] [--door=ui|route|chat-completions|responses|messages[,…]] [--warmup=N] [--requests=N] [--rounds=N] [--sources] [--keep=FILE]`:
 * the gateway's machine instructions per request at concurrency 1 through one
 * of its doors (`ui`, `POST /api/v1/chat`, unless `--door` names another), counted
 * by valgrind's callgrind (all its threads, user space only: the kernel's
 * part of a socket write is not in it). Unlike CPU time, the count hardly
 * moves when other processes share the machine, so an A/B of a change needs
 * one run each. The gateway runs uninstrumented through the warm-up (so V8
 * has optimized the hot path), then `callgrind_control` turns counting on
 * for the measured requests. Several doors (`--door=ui,route`) are an A/B in
 * one gateway: each warmed up, then measured in `--rounds` blocks (default
 * 3) taken in turn, the order rotated each round, so compilation and GC
 * that land late hit every door alike; each door's figures are its cheapest
 * block's, the one least touched by them, its cheapest block's net of V8's
 * compilations and major collections (./callgrindSplit.ts: the steadiest,
 * what the requests themselves cost) and the mean of its blocks, each with
 * its ratio to the first door's (each block's split is printed too). Needs
 * `valgrind`; takes a few minutes. `--keep` writes the measured dump to FILE (several doors: each
 * block's to `FILE.<door>-<round>`), for `callgrind_annotate` to split by function.
 */
const args = process.argv.slice(2)
const option = (name: string, fallback: number) => numberOption(args, name, fallback)
const scenario = args.find((arg) => !arg.startsWith("--")) ?? "json"
const warmup = option("warmup", 3_000)
const requests = option("requests", 500)
const doorNames = doorsOption(args)
const rounds = doorNames.length === 1 ? 1 : option("rounds", 3)
const bodyOf = (name: keyof typeof DOORS) => {
  const { body } = DOORS[name]
  const bodies: Record<string, string> = { json: body.text(false), stream: body.text(true), tools: body.toolLoop() }
  const chosen = bodies[scenario]
  if (chosen === undefined) throw new Error(`unknown scenario ${scenario}: use json, stream or tools`)
  return chosen
}
const bodies = new Map(doorNames.map((name) => [name, bodyOf(name)]))

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

const requester = sequential()
const sendMany = (name: keyof typeof DOORS, count: number) =>
  requester.sendMany(target.doors.find((door) => door.name === name)!, bodies.get(name)!, count)

const keep = args.find((arg) => arg.startsWith("--keep="))?.slice("--keep=".length)

/** The dump named `name`, split (./callgrindSplit.ts); with `--keep`, the dump is kept as `file`. */
const counted = (name: string, file: string | undefined): Split => {
  const path = readdirSync(outDir).map((file) => join(outDir, file)).find((path) =>
    new RegExp(`^desc: Trigger: (?:Client Request: |dump )${name}\\s*$`, "m").test(readFileSync(path, "utf8"))
  )
  if (path === undefined) throw new Error(`no callgrind dump of ${name}`)
  if (file !== undefined) copyFileSync(path, file)
  return splitDump(path)
}

/** Per request: a door's cheapest block, its cheapest block net of compilations and major collections, its mean. */
const figures = (splits: ReadonlyArray<Split>, block: number) => ({
  cheapest: Math.round(Math.min(...splits.map((split) => split.total)) / block),
  net: Math.round(Math.min(...splits.map((split) => split.total - split.compile - split.majorGc)) / block),
  mean: Math.round(splits.reduce((sum, split) => sum + split.total, 0) / splits.length / block)
})

try {
  for (const name of doorNames) await sendMany(name, warmup)
  const block = Math.ceil(requests / rounds)
  callgrind("--instr=on")
  for (let round = 0; round < rounds; round++) {
    // The doors' order rotated each round, as the bench's A/B does: the first block after counting starts is no one door's.
    for (let i = 0; i < doorNames.length; i++) {
      const name = doorNames[(round + i) % doorNames.length]!
      callgrind("--zero")
      await sendMany(name, block)
      callgrind(`--dump=measured-${name}-${round}`)
    }
  }
  callgrind("--instr=off")
  const splits = new Map(doorNames.map((name) => [
    name,
    Array.from({ length: rounds }, (_, round) =>
      counted(
        `measured-${name}-${round}`,
        keep === undefined || doorNames.length === 1 ? keep : `${keep}.${name}-${round}`
      ))
  ]))
  // A block that a major GC or a compilation landed in counted up to twice the others (its cost spread over the
  // block's requests): each door's figure is its cheapest block, the nearest to what a request itself costs, and
  // its cheapest block net of both; the mean is every block's, both included, as a long run pays them.
  const perRequest = new Map(doorNames.map((name) => [name, figures(splits.get(name)!, block)]))
  const [first] = doorNames
  const ratios = (figure: keyof ReturnType<typeof figures>) =>
    Object.fromEntries(
      doorNames.slice(1).map((name) => [
        `${name} / ${first}`,
        perRequest.get(name)![figure] / perRequest.get(first!)![figure]
      ])
    )
  const perBlock = (name: keyof typeof DOORS) =>
    splits.get(name)!.map(({ compile, majorGc, total }) => ({
      total: Math.round(total / block),
      compile: Math.round(compile / block),
      majorGc: Math.round(majorGc / block)
    }))
  console.log(JSON.stringify(
    doorNames.length === 1
      ? { scenario, door: first, warmup, requests: block, instructionsPerRequest: perRequest.get(first!)!.cheapest }
      : {
        scenario,
        doors: doorNames,
        warmup,
        requests: block * rounds,
        rounds,
        instructionsPerRequest: Object.fromEntries(doorNames.map((name) => [name, perRequest.get(name)])),
        ratios: { cheapest: ratios("cheapest"), net: ratios("net"), mean: ratios("mean") },
        perBlock: Object.fromEntries(doorNames.map((name) => [name, perBlock(name)]))
      }
  ))
} finally {
  requester.close()
  await target.stop()
  rmSync(outDir, { recursive: true, force: true })
}
