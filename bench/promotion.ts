import { readFileSync, rmSync } from "node:fs"
import { answerScenario, doorOption, DOORS, numberOption } from "./scenarios.ts"
import { sequential } from "./sequential.ts"
import { full } from "./settings.ts"
import { startTarget } from "./setup.ts"

/**
 * `node bench/promotion.ts [json|stream] [--door=ui|…] [--warmup=N] [--requests=N] [--sources] [--top=N]`:
 * where the gateway's promoted garbage comes from. At concurrency 1 a
 * request's objects should die young, in the scavenge after it; an object
 * that survives two scavenges is promoted, and a full collection, which
 * costs a large share of a request (BENCHMARKS.md, twelfth and thirteenth
 * sessions), frees it. Two runs of `--requests` requests each, under V8's
 * sampling heap profiler (bench/gatewayProcess.ts): one keeps the objects
 * that died young, the other those promoted and freed by a full collection
 * forced at its end. Prints, by allocation site (the function and its
 * place; `--sources` runs the gateway from its TypeScript, so that places
 * are files), the bytes a request allocates there that died young, that
 * were promoted, and the promoted share, the sites that promote most first.
 */
interface ProfileNode {
  readonly callFrame: {
    readonly functionName: string
    readonly url: string
    readonly lineNumber: number
    readonly columnNumber: number
  }
  readonly selfSize: number
  readonly children?: ReadonlyArray<ProfileNode>
}

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => numberOption(args, name, fallback)
const scenario = answerScenario(args, "stream")
const doorName = doorOption(args)
const [warmup, requests, top] = [option("warmup", 8_000), option("requests", 10_000), option("top", 30)]

// A site is its function and its place: node_modules' and the project's paths shortened, lines counted from 1.
const siteOf = ({ columnNumber, functionName, lineNumber, url }: ProfileNode["callFrame"]) =>
  `${functionName || "(anonymous)"} ${
    url.replace(/^.*\/parley-bench-[^/]+\//, "bundle/").replace(/^.*node_modules\//, "").replace(
      /^file:\/\/.*\/(src|bench)\//,
      "$1/"
    )
  }` +
  (lineNumber < 0 ? "" : `:${lineNumber + 1}:${columnNumber + 1}`)

/** Sampled bytes by allocation site (each node's own allocations, `selfSize`, an estimate of all of them). */
const bytesBySite = (file: string): Map<string, number> => {
  const sites = new Map<string, number>()
  const visit = (node: ProfileNode) => {
    if (node.selfSize > 0) {
      const site = siteOf(node.callFrame)
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize)
    }
    for (const child of node.children ?? []) visit(child)
  }
  visit((JSON.parse(readFileSync(file, "utf8")) as { head: ProfileNode }).head)
  rmSync(file)
  return sites
}

const target = await startTarget(full, { fromSources: args.includes("--sources") })
const requester = sequential()
const door = target.doors.find((each) => each.name === doorName)!
const body = DOORS[doorName].body.text(scenario === "stream")
const sampled = async (collected: "minor" | "major") => {
  await target.gateway.ask({ type: "heap-sample-start", collected })
  await requester.sendMany(door, body, requests)
  const { file } = await target.gateway.ask<{ file: string }>({ type: "heap-sample-stop", collected })
  process.stderr.write(`${collected}: sampled\n`)
  return bytesBySite(file)
}
try {
  await requester.sendMany(door, body, warmup)
  const young = await sampled("minor")
  const promoted = await sampled("major")
  const sum = (sites: Map<string, number>) => [...sites.values()].reduce((a, b) => a + b, 0)
  const perRequest = (bytes: number) => Math.round(bytes / requests)
  const sites = [...new Set([...young.keys(), ...promoted.keys()])].map((site) => {
    const [diedYoung, wasPromoted] = [young.get(site) ?? 0, promoted.get(site) ?? 0]
    return {
      site,
      diedYoung: perRequest(diedYoung),
      promoted: perRequest(wasPromoted),
      promotedShare: Number((wasPromoted / (diedYoung + wasPromoted)).toFixed(2))
    }
  }).sort((a, b) => b.promoted - a.promoted)
  console.log(JSON.stringify({
    scenario,
    door: doorName,
    warmup,
    requests,
    bytesPerRequest: { diedYoung: perRequest(sum(young)), promoted: perRequest(sum(promoted)) }
  }))
  console.log("promoted  died young  share  site (bytes a request)")
  for (const { diedYoung, promoted, promotedShare, site } of sites.slice(0, top)) {
    console.log(
      `${String(promoted).padStart(8)}  ${String(diedYoung).padStart(10)}  ${promotedShare.toFixed(2)}   ${site}`
    )
  }
} finally {
  await target.stop()
}
