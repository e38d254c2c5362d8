import { readFileSync } from "node:fs"

/**
 * `node bench/topFunctions.ts PROFILE.cpuprofile [N]`: the functions with the
 * most self time and the source files with the most total self time, so a
 * profile can be read (and quoted in BENCHMARKS.md) without DevTools.
 */
interface Node {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly nodes: ReadonlyArray<Node>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const [file, count = "30"] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: topFunctions.ts PROFILE.cpuprofile [N]")
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const self = new Map<number, number>()
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
const total = [...self.values()].reduce((a, b) => a + b, 0)

// The last `/src/`, `/bench/` or `/test/` of a path is the project's folder: a checkout may itself lie in a
// folder of that name (`/work/wt/bench/src/…`), and none of the three has a subfolder of those names.
const shorten = (url: string) => url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(src|bench|test)\//, "$1/")
const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros)
const functions = new Map<string, number>()
const files = new Map<string, number>()
for (const [id, micros] of self) {
  const frame = byId.get(id)!.callFrame
  const where = frame.url === "" ? "(native)" : shorten(frame.url)
  add(functions, `${frame.functionName || "(anonymous)"}  ${where}:${frame.lineNumber + 1}`, micros)
  add(files, where, micros)
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`)
  for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
    console.log(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`)
  }
}
// Total time: each sample counts once for every distinct function on its stack.
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
const totals = new Map<string, number>()
for (const [id, micros] of self) {
  const seen = new Set<string>()
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)!.callFrame
    if (frame.url === "") continue
    const name = `${frame.functionName || "(anonymous)"}  ${shorten(frame.url)}:${frame.lineNumber + 1}`
    if (!seen.has(name)) add(totals, name, micros)
    seen.add(name)
  }
}
// Self time by package, a native leaf charged to the JavaScript that called it.
const packageOf = (url: string) => {
  const short = shorten(url)
  const scoped = /^(@[^/]+\/[^/]+|[^/]+)/.exec(short)?.[1] ?? short
  return short.startsWith("node:")
    ? short.replace(/^node:(internal\/)?(deps\/)?([^/]+).*$/, "node:$3")
    : short.startsWith("src/")
    ? short.replace(/\/[^/]*$/, "")
    : scoped
}
const packages = new Map<string, number>()
for (const [id, micros] of self) {
  let at: number | undefined = id
  while (at !== undefined && byId.get(at)!.callFrame.url === "") at = parent.get(at)
  add(
    packages,
    at === undefined ? byId.get(id)!.callFrame.functionName : packageOf(byId.get(at)!.callFrame.url),
    micros
  )
}
print("self time by package (native time charged to its caller)", packages)
print("total time by function", totals)
print("self time by function", functions)
print("self time by file", files)
