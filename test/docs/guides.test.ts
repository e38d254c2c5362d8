import { readdirSync, readFileSync } from "node:fs"
import { createConnection } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { guideBackends, type GuideBlock, isStandalone, shellBlocks } from "./guideBlocks.ts"
import { openSession, root } from "./guideSession.ts"

/**
 * Every shell command of the README and the guides in docs/ runs here,
 * literally, in a fresh copy of the checkout (docs/DESIGN.md §13). A guide
 * that is not standalone runs after "Getting started", whose blocks leave a
 * gateway on 8787 and KEY, H and ADMIN set, as its readers have them. A
 * guide marked for several sandbox backends runs once with each, as a reader
 * who exported PARLEY_SANDBOX_BACKEND before starting does.
 */
const GETTING_STARTED = "docs/getting-started.md"
const guides = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md") && name !== "spec.md" && name !== "DESIGN.md")
    .map((name) => `docs/${name}`)
]

const read = (path: string) => readFileSync(join(root, path), "utf8")

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

describe("the guides' commands, run as written", () => {
  for (const guide of guides) {
    const markdown = read(guide)
    const backends = guideBackends(markdown)
    for (const backend of backends) {
      const name = backends.length === 1 ? guide : `${guide} (${backend} sandboxes)`
      it(name, { timeout: 900_000 }, async () => {
        const taken = []
        for (const port of PORTS) if (await listening(port)) taken.push(port)
        expect(taken, `ports the guides use are taken: stop what listens there (ss -ltnp)`).toEqual([])
        const steps = [
          ...(isStandalone(markdown) || guide === GETTING_STARTED
            ? []
            : shellBlocks(read(GETTING_STARTED)).map((block) => ({
              block,
              where: `${GETTING_STARTED}:${block.line}`
            }))),
          ...shellBlocks(markdown).map((block) => ({ block, where: `${guide}:${block.line}` }))
        ]
        const session = openSession(backends.length === 1 ? {} : { PARLEY_SANDBOX_BACKEND: backend })
        try {
          for (const { block, where } of steps) {
            if (block.notRun !== undefined || (block.backend !== undefined && block.backend !== backend)) continue
            const { statuses } = await session.run(block, where)
            checkStatuses(where, block, statuses)
          }
        } finally {
          await session.close()
        }
      })
    }
  }
})
