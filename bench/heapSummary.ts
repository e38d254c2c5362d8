import { readFileSync } from "node:fs"

/**
 * `node bench/heapSummary.ts FILE.heapsnapshot [N]`: self size and count of
 * the heap's objects by constructor, largest first, so memory per open stream
 * can be read (and quoted in BENCHMARKS.md) without DevTools.
 */
interface Snapshot {
  readonly snapshot: {
    readonly meta: { readonly node_fields: ReadonlyArray<string>; readonly node_types: ReadonlyArray<unknown> }
  }
  readonly nodes: ReadonlyArray<number>
  readonly strings: ReadonlyArray<string>
}

const [file, count = "40"] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: heapSummary.ts FILE.heapsnapshot [N]")
const heap = JSON.parse(readFileSync(file, "utf8")) as Snapshot
const fields = heap.snapshot.meta.node_fields
const types = heap.snapshot.meta.node_types[0] as ReadonlyArray<string>
const width = fields.length
const at = (name: string) => fields.indexOf(name)
const [typeAt, nameAt, sizeAt] = [at("type"), at("name"), at("self_size")]
const groups = new Map<string, { size: number; count: number }>()
let total = 0
for (let i = 0; i < heap.nodes.length; i += width) {
  const type = types[heap.nodes[i + typeAt]!]!
  const name = type === "object" || type === "closure" ? heap.strings[heap.nodes[i + nameAt]!]! : `(${type})`
  const size = heap.nodes[i + sizeAt]!
  const group = groups.get(name) ?? { size: 0, count: 0 }
  group.size += size
  group.count++
  groups.set(name, group)
  total += size
}
console.log(`total ${(total / 2 ** 20).toFixed(1)} MiB`)
for (const [name, { size, count: n }] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, Number(count))) {
  console.log(`${(size / 2 ** 20).toFixed(2).padStart(8)} MiB ${String(n).padStart(9)}  ${name.slice(0, 80)}`)
}
