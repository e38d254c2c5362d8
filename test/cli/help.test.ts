import { execFile } from "node:child_process"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const root = resolve(import.meta.dirname, "../..")
const node = join(root, "node_modules/.bin/node")

const parley = (...args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(node, ["src/cli/main.ts", ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr })
    })
  })

describe.concurrent("parley help", { timeout: 120_000 }, () => {
  it("prints the usage, as --help does, and succeeds", async () => {
    const [help, flag] = await Promise.all([parley("help"), parley("--help")])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stderr).toBe("")
    expect(help.stdout).toContain("USAGE\n  parley <subcommand> [flags]")
    for (const command of ["serve", "keys", "sandbox", "demo", "help"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"))
    }
    expect(help.stdout).toBe(flag.stdout)
  })

  it("explains one command: `help keys create` is `keys create --help`", async () => {
    const [help, flag] = await Promise.all([parley("help", "keys", "create"), parley("keys", "create", "--help")])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toContain("parley keys create [flags]")
    expect(help.stdout).toBe(flag.stdout)
  })
})
