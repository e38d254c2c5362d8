import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, expect, it } from "vitest"
import { describeEngine, dockerEngine } from "./engines.ts"

/** The real CLI (`node src/cli/main.ts sandbox …`) with the `docker` backend: it says what it makes, and where. */
const root = resolve(import.meta.dirname, "../..")
const node = join(root, "node_modules/.bin/node")
const dir = mkdtempSync(join(tmpdir(), "parley-cli-docker-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parley = (...args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(node, ["src/cli/main.ts", "sandbox", ...args], {
      cwd: root,
      env: {
        ...process.env,
        PARLEY_SANDBOX_BACKEND: "docker",
        DOCKER_HOST: dockerEngine.address.host,
        DATABASE_URL: `sqlite:${join(dir, "parley.db")}`
      },
      timeout: 60_000
    }, (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }))
  })

describeEngine(dockerEngine, "parley sandbox with the docker backend", () => {
  it("says it makes a container from the sandbox image, not that it checks this host's jail", async () => {
    const created = await parley("create")
    expect(created, created.stderr).toMatchObject({ code: 0 })
    expect(created.stderr).toContain("Creating a sandbox: a container from the sandbox image on the engine…")
    expect(created.stderr).not.toContain("jail")
    const id = /Created sandbox (sbx_[0-9a-f]{24})\./.exec(created.stdout)?.[1]
    expect(id).toBeDefined()
    expect(await parley("rm", id!)).toMatchObject({ code: 0 })
  })
})
