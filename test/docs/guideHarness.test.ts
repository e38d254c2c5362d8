import { existsSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { homedir, tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { shellBlocks } from "./guideBlocks.ts"
import { BlockFailed, openSession } from "./guideSession.ts"

// The guide tests pass only if this harness can fail: each way it must is tried here.

const server = createServer((request, response) => {
  response.statusCode = Number(request.url!.slice(1))
  response.end("{}")
})
let base: string
beforeAll(() => new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done())))
beforeAll(() => {
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))

const block = (text: string) => shellBlocks("```sh\n" + text + "\n```")[0]!

describe("the guide harness", () => {
  it("takes sh and bash blocks, the reason a block is not run, and the statuses named with # →", () => {
    const blocks = shellBlocks([
      "```json",
      "{}",
      "```",
      "<!-- not run: installs on a host -->",
      "",
      "```sh",
      "systemctl enable parley",
      "```",
      "  ```bash",
      "  curl -s localhost:8787/x \\",
      "    -H 'a: b'   # → 403",
      "  ```"
    ].join("\n"))
    expect(blocks.map(({ line, notRun, expected }) => ({ line, notRun, expected }))).toEqual([
      { line: 6, notRun: "installs on a host", expected: [] },
      { line: 9, notRun: undefined, expected: [403] }
    ])
    expect(blocks[1]!.text).toBe("curl -s localhost:8787/x \\\n  -H 'a: b'   # → 403")
  })

  it("keeps variables between blocks, reports each curl's status, and fails on a failing command", async () => {
    const session = openSession()
    try {
      await session.run(block(`BASE=${base}`), "set")
      const ok = await session.run(block(`curl -s $BASE/403; curl -s $BASE/200; curl -sf $BASE/200`), "curls")
      expect(ok.statuses).toEqual([403, 200])
      // A command's own -w still writes what it asks, and the status is still told.
      const own = await session.run(block(`curl -s -o /dev/null -w '%{http_code}\\n' $BASE/413`), "own -w")
      expect(own).toEqual({ output: "413", statuses: [413] })
      await expect(session.run(block("false"), "fails")).rejects.toThrow(BlockFailed)
    } finally {
      await session.close()
    }
  })

  it("takes all a block writes while this process is busy, with Node in the background", async () => {
    const session = openSession()
    try {
      // Node makes the output it inherits non-blocking once it writes (as parley and the scripted provider do).
      await session.run(
        block(
          `node -e 'console.log("up"); require("fs").writeFileSync("node-up", ""); setInterval(() => {}, 1000)' &
until [ -e node-up ]; do sleep 0.05; done`
        ),
        "background"
      )
      const running = session.run(block(`head -c 300000 /dev/zero | tr '\\0' x; echo; echo written`), "a lot")
      // Busy for a second: more than a pipe's 64 KiB are written meanwhile.
      for (const end = Date.now() + 1_000; Date.now() < end;);
      const { output } = await running
      expect(output).toContain(`${"x".repeat(300_000)}\nwritten`)
    } finally {
      await session.close()
    }
  })

  it("gives a block no input, and a HOME and a TMPDIR of its own beside the machine's npm cache", async () => {
    const session = openSession()
    try {
      // `cat` reads until its input ends: the harness's pipe of commands would never end.
      const { output } = await session.run(
        block(`cat; echo "$HOME"; echo "$TMPDIR"; echo "$npm_config_cache"; touch ~/written "$TMPDIR/written"`),
        "no input"
      )
      const [home, temp, cache] = output.split("\n")
      expect(home).not.toBe(homedir())
      expect(temp).not.toBe(tmpdir())
      expect(existsSync(join(home!, "written")) && existsSync(join(temp!, "written"))).toBe(true)
      expect(cache).toBe(process.env.npm_config_cache ?? join(homedir(), ".npm"))
      // The session's copy of the checkout is not under its TMPDIR (Codex sets up no sandbox there).
      expect(session.cwd.startsWith(temp!)).toBe(false)
    } finally {
      await session.close()
    }
  })

  it("fails a block whose curl cannot connect, even inside a pipe", async () => {
    const session = openSession()
    try {
      await expect(session.run(block("curl -s http://127.0.0.1:9/x | cat"), "refused")).rejects.toThrow(
        /a command failed/
      )
    } finally {
      await session.close()
    }
  })
})
