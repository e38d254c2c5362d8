import { execFile } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "../..")
const node = join(root, "node_modules/.bin/node")

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** The SQLite database `cliIn` gives the CLI run in `dir`. */
export const databaseUrl = (dir: string) => `sqlite:${join(dir, "parley.db")}`

/**
 * Runs the real CLI (`node src/cli/main.ts …`) in a fresh folder of its own,
 * with a fresh SQLite database, no provider variables and, when given, this
 * `parley.config.json` and these variables. `dir` is that folder.
 */
export const cliIn = (config?: unknown, extraEnv: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), "parley-cli-"))
  if (config !== undefined) writeFileSync(join(dir, "parley.config.json"), JSON.stringify(config))
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(OPENAI|ANTHROPIC|PARLEY|DATABASE_URL)/.test(name))
  )
  const run = (...args: ReadonlyArray<string>) =>
    new Promise<Run>((done) => {
      execFile(
        node,
        [join(root, "src/cli/main.ts"), ...args],
        { cwd: dir, env: { ...env, DATABASE_URL: databaseUrl(dir), ...extraEnv }, timeout: 60_000 },
        (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr })
      )
    })
  return Object.assign(run, { dir })
}
