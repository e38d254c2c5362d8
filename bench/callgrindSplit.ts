import { execFileSync } from "node:child_process"

/** V8's optimizing compilers (Turbofan, Maglev): they run when a function gets hot, whichever request that is. */
const COMPILE = /v8::internal::(?:compiler|maglev)::/
/** V8's major collection (marking, compaction, sweeping): it runs when the old generation is full, in one block. */
const MAJOR_GC = /Mark(?:ing|Compact|Bit)|Sweeper|Ephemeron|PointersUpdatingVisitor/

export interface Split {
  readonly total: number
  readonly compile: number
  readonly majorGc: number
}

/**
 * A callgrind dump's instructions, and those of V8's compilers and of its
 * major collections among them, by `callgrind_annotate`'s split by function
 * (self cost). A block of requests that a compilation or a major collection
 * lands in counts up to twice another's (BENCHMARKS.md): what is left once
 * both are taken out is what the requests themselves cost, young-generation
 * collections included, and varies far less from block to block.
 */
export const splitDump = (file: string): Split => {
  const text = execFileSync("callgrind_annotate", ["--inclusive=no", "--threshold=100", file], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 ** 2
  })
  let [total, compile, majorGc] = [0, 0, 0]
  for (const line of text.split("\n")) {
    const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line)
    if (match === null) continue
    const [, count, name] = match
    if (name!.startsWith("PROGRAM TOTALS")) continue
    const instructions = Number(count!.replaceAll(",", ""))
    total += instructions
    if (COMPILE.test(name!)) compile += instructions
    else if (MAJOR_GC.test(name!)) majorGc += instructions
  }
  return { total, compile, majorGc }
}
