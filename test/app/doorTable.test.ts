import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { doors } from "../../src/app/doors.ts"
import { DOORS, protocols } from "../../src/domain/protocols.ts"
import { protocolOfRoute, routeLabel } from "../../src/observability/routeLabel.ts"

/**
 * A door is a folder and a row (issue 34 part 3, docs/DESIGN.md §2): the door
 * table (`domain/protocols.ts`, with each chat door's entry in `app/doors.ts`)
 * is the only list of the doors; the contract, the route labels, the
 * protocol names, the hot routes and the side routes come from it.
 */
const root = join(import.meta.dirname, "..", "..")
const TABLE = "src/domain/protocols.ts"
const ENTRIES = "src/app/doors.ts"

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : []
  })

// The code of a file without its comments: a comment may name every door, as docs do.
const codeOf = (path: string) =>
  readFileSync(path, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1")

const sources = [...filesUnder(join(root, "src")), ...filesUnder(join(root, "console"))].map((path) => ({
  file: relative(root, path),
  code: codeOf(path)
}))

const chatDoors = protocols.filter((name) => name !== "mcp")
const quoted = (text: string) => new RegExp(`["'\`]${text.replace(/[/.]/g, "\\$&")}["'\`]`)

describe("the door table", () => {
  it("has an entry for every chat door it names, and none it does not", () => {
    expect(Object.keys(doors).sort()).toEqual([...chatDoors].sort())
  })

  // A name may be said elsewhere (a door's own, a default in a migration, `mcp` beside a door): a list is more.
  it("is the only file that lists the doors' names", () => {
    const listing = sources.filter(({ code, file }) =>
      file !== TABLE && protocols.filter((name) => quoted(name).test(code)).length > 2
    )
    expect(listing.map(({ file }) => file)).toEqual([])
  })

  it("is the only file that holds more than one door's path", () => {
    const paths = protocols.map((name) => DOORS[name].paths[0])
    const listing = sources.filter(({ code, file }) =>
      file !== TABLE && paths.filter((path) => quoted(path).test(code)).length > 1
    )
    expect(listing.map(({ file }) => file)).toEqual([])
  })

  it("is the only place that brings the door folders together", () => {
    const folders = chatDoors.map((name) => `protocols/${name}/`)
    const importing = sources.filter(({ code, file }) =>
      file !== ENTRIES && folders.filter((folder) => code.includes(folder)).length > 1
    )
    expect(importing.map(({ file }) => file)).toEqual([])
  })

  it("gives each door's paths their own route label and the door's name as their protocol", () => {
    for (const name of protocols) {
      for (const path of DOORS[name].paths) {
        expect(routeLabel(path)).toBe(path)
        expect(protocolOfRoute(path)).toBe(name)
      }
    }
    expect(protocolOfRoute(routeLabel("/v1/models"))).toBeUndefined()
  })
})
