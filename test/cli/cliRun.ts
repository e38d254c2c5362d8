import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

/** Runs the real CLI (`node src/cli/main.ts …`) in a child process. */
const root = resolve(import.meta.dirname, "../..")
const node = join(root, "node_modules/.bin/node")

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export const freshDatabase = () => join(mkdtempSync(join(tmpdir(), "parley-cli-")), "data", "parley.db")

/** `stdin`, when given, is written to the command's standard input. */
export const parleyWith = (database: string, stdin: string | undefined, ...args: ReadonlyArray<string>) =>
  Effect.callback<Run>((resume) => {
    const child = execFile(
      node,
      ["src/cli/main.ts", ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: `sqlite:${database}` }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resume(Effect.succeed({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }))
      }
    )
    child.stdin?.end(stdin)
  })

export const parley = (database: string, ...args: ReadonlyArray<string>) => parleyWith(database, undefined, ...args)

export const ok = (database: string, ...args: ReadonlyArray<string>) =>
  Effect.map(parley(database, ...args), (run) => {
    assert.strictEqual(run.code, 0, `parley ${args.join(" ")} failed: ${run.stderr}`)
    return run
  })
