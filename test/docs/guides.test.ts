import { readdirSync, readFileSync } from "node:fs"
import { createConnection } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { type GuideBlock, isStandalone, shellBlocks } from "./guideBlocks.ts"
import { openSession, root } from "./guideSession.ts"

/**
 * Every shell command of the README and the guides in docs/ runs here,
 * literally, in a fresh copy of the checkout (docs/DESIGN.md §13): each guide
 * alone, and all of them one after another in one shell, as a reader goes
 * through them. Alone, a guide that is not standalone runs after "Getting
 * started", whose blocks leave a gateway on 8787 and KEY, KEY_ID, H and ADMIN
 * set, as its readers have them.
 */
const GETTING_STARTED = "docs/getting-started.md"
const guides = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md") && name !== "spec.md" && name !== "DESIGN.md")
    .map((name) => `docs/${name}`)
]

const read = (path: string) => readFileSync(join(root, path), "utf8")

/** The reading order: the README's tour, then the guides in the order of the README's list of them. */
const readingOrder = (): ReadonlyArray<string> => {
  const readme = read("README.md")
  const start = readme.indexOf("\n## Guides\n")
  const list = readme.slice(start, readme.indexOf("\n## ", start + 1))
  return ["README.md", ...new Set([...list.matchAll(/\]\((docs\/[\w-]+\.md)\)/g)].map((match) => match[1]!))]
}

/** The literal ports the guides use: a server a developer left running would answer in the guide's place. */
const PORTS = [8787, 8788, 9100, 3001, 9300, 9301]
const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("connect", () => (socket.destroy(), done(true)))
    socket.once("error", () => done(false))
  })

/** A curl's status of 400 or more is a failure unless the block names it (`# → 403`), in order. */
const checkStatuses = (where: string, block: GuideBlock, statuses: ReadonlyArray<number>) => {
  expect(statuses.filter((status) => status >= 400), `${where}: statuses of 400 or more`).toEqual(
    block.expected.filter((status) => status >= 400)
  )
  for (const status of block.expected.filter((status) => status < 400)) {
    expect(statuses, `${where}: a curl answering ${status}`).toContain(status)
  }
}

const blocksOf = (guide: string) =>
  shellBlocks(read(guide)).map((block) => ({ block, where: `${guide}:${block.line}` }))

/** Runs the blocks in one fresh session, in order, once the guides' ports are free. */
const runInOneShell = async (steps: ReadonlyArray<{ readonly block: GuideBlock; readonly where: string }>) => {
  const taken = []
  for (const port of PORTS) if (await listening(port)) taken.push(port)
  expect(taken, `ports the guides use are taken: stop what listens there (ss -ltnp)`).toEqual([])
  const session = openSession()
  try {
    for (const { block, where } of steps) {
      if (block.notRun !== undefined) continue
      const { statuses } = await session.run(block, where)
      checkStatuses(where, block, statuses)
    }
  } finally {
    await session.close()
  }
}

describe("the guides' commands, run as written", () => {
  it("the README lists every guide, so the reading order holds them all", () => {
    expect([...readingOrder()].sort()).toEqual([...guides].sort())
  })

  it("all of them in reading order, in one shell and one database", { timeout: 1_800_000 }, async () => {
    await runInOneShell(readingOrder().flatMap(blocksOf))
  })

  // The first guide of the reading order runs alone at the start of the run above, in a fresh session.
  for (const guide of guides.filter((guide) => guide !== readingOrder()[0])) {
    it(guide, { timeout: 900_000 }, async () => {
      const first = isStandalone(read(guide)) || guide === GETTING_STARTED ? [] : blocksOf(GETTING_STARTED)
      await runInOneShell([...first, ...blocksOf(guide)])
    })
  }
})
