/**
 * The shell blocks of a Markdown guide, as the guide tests run them
 * (docs/DESIGN.md §13): fenced `sh` or `bash` blocks in order; a block is
 * skipped only when the last line before its fence that is not blank is
 * `<!-- not run: REASON -->`, and run only with one sandbox backend when it
 * is `<!-- doc-test: backend NAME -->`.
 */
export interface GuideBlock {
  /** 1-based line of the opening fence. */
  readonly line: number
  readonly text: string
  /** Why it is not run, when it is not. */
  readonly notRun: string | undefined
  /** The only sandbox backend it runs with (`PARLEY_SANDBOX_BACKEND`); undefined: every one. */
  readonly backend: string | undefined
  /** Statuses a curl of this block answers on purpose (`# → 403` ending its command). */
  readonly expected: ReadonlyArray<number>
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/
const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/
const ONLY_BACKEND = /^<!--\s*doc-test:\s*backend\s+([\w-]+)\s*-->$/
const BACKENDS = /<!--\s*doc-test:\s*backends((?:\s+[\w-]+)+)\s*-->/
const EXPECT = /#\s*→\s*(\d{3})\b/g

/** Whether the guide opts out of the running gateway the tests set up first. */
export const isStandalone = (markdown: string): boolean => markdown.includes("<!-- doc-test: standalone -->")

/**
 * The sandbox backends the guide runs with, one run each (`<!-- doc-test: backends local docker -->`); a guide
 * without the marker runs once, with the default.
 */
export const guideBackends = (markdown: string): ReadonlyArray<string> =>
  BACKENDS.exec(markdown)?.[1]!.trim().split(/\s+/) ?? ["local"]

export const shellBlocks = (markdown: string): ReadonlyArray<GuideBlock> => {
  const lines = markdown.split("\n")
  const blocks: Array<GuideBlock> = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!)
    if (open === null) continue
    const [, indent, fence, language] = open
    const body: Array<string> = []
    let j = i + 1
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(fence!); j++) {
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!)
    }
    if (language === "sh" || language === "bash") {
      const text = body.join("\n")
      const before = lines.slice(0, i).findLast((line) => line.trim() !== "")?.trim() ?? ""
      blocks.push({
        line: i + 1,
        text,
        notRun: NOT_RUN.exec(before)?.[1],
        backend: ONLY_BACKEND.exec(before)?.[1],
        expected: [...text.matchAll(EXPECT)].map((match) => Number(match[1]))
      })
    }
    i = j
  }
  return blocks
}
