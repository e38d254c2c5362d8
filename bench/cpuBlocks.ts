import { answerScenario, doorsOption, numberOption } from "./scenarios.ts"
import { sequential } from "./sequential.ts"
import { full } from "./settings.ts"
import { startTarget } from "./setup.ts"
import { median } from "./stats.ts"

/**
 * `node bench/cpuBlocks.ts [json|stream] [--door=ui,route[,…]] [--warmup=N] [--block=N] [--rounds=N] [--baseline=REF]`:
 * the gateway's CPU time (user + system, every thread) per request at
 * concurrency 1 through several doors of one gateway, in blocks of `--block`
 * requests (default 2,000) taken in turn, the order rotated each round, over
 * `--rounds` rounds (default 16). Each door's figure is the median of its
 * blocks, and every door's ratio to the first. Many short alternating blocks
 * give drift in machine load and GC the same share of every door, where the
 * full bench's c=1 phase takes three long runs a door; unlike
 * `bench/instructions.ts` it counts the kernel's part of a request too,
 * and prints that part alone (`systemMsPerRequest`: mostly writing the
 * answer's bytes, which a format's size sets). `--baseline=REF` adds the same
 * doors of REF's gateway, last (`ui@COMMIT`…), its CPU read in its own process.
 */
const args = process.argv.slice(2)
const option = (name: string, fallback: number) => numberOption(args, name, fallback)
const scenario = answerScenario(args, "json")
const doorNames = doorsOption(args)
const [warmup, block, rounds] = [option("warmup", 4_000), option("block", 2_000), option("rounds", 16)]

const baseline = args.find((arg) => arg.startsWith("--baseline="))?.slice("--baseline=".length)
const target = await startTarget(full, { baseline, baselineDoors: doorNames })
// A baseline's doors (`ui@COMMIT`…) come last, measured in its own gateway.
const names: ReadonlyArray<string> = [
  ...doorNames,
  ...target.doors.filter((door) => door.name.includes("@")).map((door) => door.name)
]
const doorOf = (name: string) => target.doors.find((door) => door.name === name)!
const requester = sequential()
// The door's gateway's CPU so far, and the kernel's part of it (writing the answers' bytes to the sockets, mostly).
const cpuMicros = (name: string) =>
  doorOf(name).gateway.ask<{ cpuMicros: number; systemMicros: number }>({ type: "stats" })
const run = (name: string, count: number) =>
  requester.sendMany(doorOf(name), doorOf(name).body.text(scenario === "stream"), count)
try {
  for (const name of names) await run(name, warmup)
  const blocks = new Map(names.map((name) => [name, [] as Array<number>]))
  const systemBlocks = new Map(names.map((name) => [name, [] as Array<number>]))
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!
      const before = await cpuMicros(name)
      await run(name, block)
      const after = await cpuMicros(name)
      blocks.get(name)!.push((after.cpuMicros - before.cpuMicros) / 1000 / block)
      systemBlocks.get(name)!.push((after.systemMicros - before.systemMicros) / 1000 / block)
      process.stderr.write(".")
    }
  }
  process.stderr.write("\n")
  const perRequest = new Map(names.map((name) => [name, median(blocks.get(name)!)]))
  const systemPerRequest = new Map(names.map((name) => [name, median(systemBlocks.get(name)!)]))
  const first = perRequest.get(names[0]!)!
  console.log(JSON.stringify({
    scenario,
    warmup,
    block,
    rounds,
    cpuMsPerRequest: Object.fromEntries(perRequest),
    ratios: Object.fromEntries(
      names.slice(1).map((name) => [`${name} / ${names[0]}`, perRequest.get(name)! / first])
    ),
    // Each door against the same door of the baseline (`--baseline`): the A/B of a change.
    ...(baseline === undefined ? {} : {
      againstBaseline: Object.fromEntries(
        names.filter((name) => name.includes("@")).map((name) => {
          const door = name.slice(0, name.indexOf("@"))
          return [`${door} / ${name}`, perRequest.get(door)! / perRequest.get(name)!]
        })
      )
    }),
    systemMsPerRequest: Object.fromEntries(systemPerRequest),
    perBlock: Object.fromEntries(blocks)
  }))
} finally {
  requester.close()
  await target.stop()
}
