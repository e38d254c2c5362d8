import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

/**
 * The repository's import rules (.dependency-cruiser.js) run as CI runs them, over a small tree of their own:
 * the rules must see `import type` (TypeScript 7 leaves dependency-cruiser without tsc, swc parses instead), and
 * tell the console's type imports from its value imports.
 */
const repo = join(import.meta.dirname, "..")

interface Violation {
  readonly from: string
  readonly to: string
  readonly rule: { readonly name: string }
}

const fixture: Record<string, string> = {
  // Up the layers by a type import only.
  "src/domain/Order.ts": `import type { Run } from "../agent/Run.ts"\nexport type Order = { readonly run?: Run }\n`,
  // Down the layers: allowed.
  "src/agent/Run.ts": `import { limit } from "../config/limit.ts"\nexport type Run = { readonly steps: number }\n` +
    `export const steps = limit\n`,
  "src/config/limit.ts": `export const limit = 10\n`,
  // A circle made of type imports inside one folder.
  "src/store/Row.ts": `import type { Table } from "./Table.ts"\nexport type Row = { readonly table?: Table }\n`,
  "src/store/Table.ts": `import type { Row } from "./Row.ts"\nexport type Table = { readonly rows: Array<Row> }\n`,
  // The server importing test or benchmark code, by a type import too.
  "src/cli/Demo.ts": `import type { Script } from "../../test/support/script.ts"\nexport const demo: Script = []\n`,
  "src/cli/Floor.ts": `import { floor } from "../../bench/floor.ts"\nexport const shown = floor\n`,
  "test/support/script.ts": `export type Script = Array<string>\n`,
  "bench/floor.ts": `export const floor = 1\n`,
  // A folder missing from the layer order.
  "src/widgets/Widget.ts": `import { limit } from "../config/limit.ts"\nexport const widget = limit\n`,
  // The console: a view type of src/domain/ is allowed; a value, or a type from elsewhere, is not.
  "src/domain/views.ts":
    `export type KeyView = { readonly id: string }\nexport const keyView = (id: string) => ({ id })\n`,
  "console/Keys.tsx": `import type { KeyView } from "../src/domain/views.ts"\nexport type Row = KeyView\n`,
  "console/KeyPage.tsx": `import { type KeyView, keyView } from "../src/domain/views.ts"\n` +
    `export const page = (id: string): KeyView => keyView(id)\n`,
  "console/Runs.ts": `import type { Run } from "../src/agent/Run.ts"\nexport type Shown = Run\n`,
  "console/Limit.ts": `import { limit } from "../src/config/limit.ts"\nexport const shown = limit\n`
}

let dir: string
let violations: ReadonlyArray<Violation>

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-import-rules-"))
  for (const [path, text] of Object.entries(fixture)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  let output: string
  try {
    output = execFileSync(
      process.execPath,
      [
        join(repo, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs"),
        "src",
        "console",
        "--config",
        join(repo, ".dependency-cruiser.js"),
        "--output-type",
        "json"
      ],
      { cwd: dir, encoding: "utf8" }
    )
  } catch (error) {
    // Violations make the command exit non-zero; its report is still on stdout.
    output = (error as { stdout: string }).stdout
  }
  violations = (JSON.parse(output) as { summary: { violations: ReadonlyArray<Violation> } }).summary.violations
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const found = (rule: string) => violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} → ${v.to}`).sort()

describe("import rules", () => {
  it("flag a type import up the layer order", () => {
    expect(found("layer-order: domain/ imports from above")).toEqual(["src/domain/Order.ts → src/agent/Run.ts"])
  })

  it("flag a circle made of type imports", () => {
    // dependency-cruiser names each circle once, from one of its files.
    expect(found("no-circular")).toEqual(["src/store/Row.ts → src/store/Table.ts"])
  })

  it("flag a folder missing from the layer order", () => {
    expect(found("layer-order: unknown folder")).toEqual(["src/widgets/Widget.ts → src/config/limit.ts"])
  })

  it("flag an import of test/ or bench/ from src/, a type import too", () => {
    expect(found("src: import from test/ or bench/")).toEqual([
      "src/cli/Demo.ts → test/support/script.ts",
      "src/cli/Floor.ts → bench/floor.ts"
    ])
  })

  it("flag a value import of src/ in the console, from src/domain/ too", () => {
    expect(found("console: value import from src/")).toEqual([
      "console/KeyPage.tsx → src/domain/views.ts",
      "console/Limit.ts → src/config/limit.ts"
    ])
  })

  it("flag a console import of src/ outside src/domain/, a type import too", () => {
    expect(found("console: types from outside src/domain/")).toEqual([
      "console/Limit.ts → src/config/limit.ts",
      "console/Runs.ts → src/agent/Run.ts"
    ])
  })

  it("let the console import src/domain/'s view types", () => {
    expect(violations.filter((v) => v.from === "console/Keys.tsx")).toEqual([])
  })

  it("let imports point down", () => {
    expect(violations.filter((v) => v.from === "src/agent/Run.ts")).toEqual([])
  })
})
