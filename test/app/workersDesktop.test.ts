import { execFile } from "node:child_process"
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { decodePng } from "../sandbox/png.ts"
import { displayServersOf, parentOf } from "../sandbox/support.ts"
import { childrenOf, cli, freePort, listeningWorkers, serve, serveEnv, until } from "./servedWorkers.ts"

// Sandboxes run as other users: the folders on the way must be passable (mkdtemp makes them 0700).
const base = mkdtempSync(join(tmpdir(), "parley-workers-desktop-"))
chmodSync(base, 0o711)
afterAll(() => rmSync(base, { recursive: true, force: true }))

interface ToolResult {
  readonly isError?: boolean
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string; readonly data?: string }>
}

/**
 * One `tools/call` on /mcp over a connection of its own: the primary hands
 * each new connection to the next worker, so calls made one after another
 * alternate between the two.
 */
const callTool = (port: number, key: string, name: string, args: Record<string, unknown>) =>
  new Promise<ToolResult>((done, fail) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } })
    const req = request({
      host: "127.0.0.1",
      port,
      path: "/mcp",
      method: "POST",
      agent: false,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      }
    }, (res) => {
      let text = ""
      res.setEncoding("utf8").on("data", (chunk) => (text += chunk)).on("end", () => {
        const answer = JSON.parse(text)
        if (answer.result === undefined || answer.result.isError === true) {
          return fail(new Error(`${name} ${JSON.stringify(args)} failed: ${text.slice(0, 500)}`))
        }
        done(answer.result)
      })
    })
    req.on("error", fail)
    req.end(body)
  })

const screenshot = async (port: number, key: string, sandboxId: string) => {
  const result = await callTool(port, key, "computer", { action: "screenshot", _sandboxId: sandboxId })
  const image = result.content.find((part) => part.type === "image")
  if (image?.data === undefined) throw new Error(`no image: ${JSON.stringify(result).slice(0, 500)}`)
  return decodePng(Buffer.from(image.data, "base64"))
}

describe("desktops under parley serve --workers", () => {
  it(
    "start one display server per sandbox, which actions through either worker share and which ends with its worker",
    { timeout: 150_000 },
    async () => {
      const port = await freePort()
      const folder = mkdtempSync(join(base, "run-"))
      chmodSync(folder, 0o711)
      // Plain workspace folders: no loop devices needed.
      const extra = { PARLEY_SANDBOX_DISK: "0" }
      const env = serveEnv(folder, port, extra)
      const created = await promisify(execFile)(
        process.execPath,
        [cli, "keys", "create", "--name", "desktop", "--models", "*", "--tools", "bash,computer", "--json"],
        { cwd: folder, env }
      )
      const key: string = JSON.parse(created.stdout).key
      const served = serve(base, port, ["--workers", "2"], { folder, env: extra })
      try {
        await listeningWorkers(served, 2)
        const createDesktop = async () => {
          const response = await fetch(`http://127.0.0.1:${port}/api/v1/sandboxes`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({ desktop: true })
          })
          expect(response.status).toBe(201)
          const id: string = (await response.json()).data.sandbox.id
          return { id, folder: join(folder, "sandboxes", id) }
        }

        // A window opened through one worker (whose command starts the desktop) shows on the screenshots taken
        // through both.
        const first = await createDesktop()
        // The command ends once the window is mapped, however long xev takes on a busy machine.
        const opened = await callTool(port, key, "bash", {
          command: "stdbuf -oL xev -geometry 200x150+100+100 > xev.log 2>&1 & " +
            "until grep -qs MapNotify xev.log; do sleep 0.05; done",
          _sandboxId: first.id
        })
        expect(JSON.parse(opened.content[0]!.text!)).toMatchObject({ exit_code: 0 })
        for (let i = 0; i < 4; i++) {
          const png = await screenshot(port, key, first.id)
          expect(png.pixel(150, 150), `screenshot ${i}`).not.toEqual(png.pixel(600, 600))
        }
        // The pointer moved through one worker is where the other sees it.
        await callTool(port, key, "computer", { action: "mouse_move", coordinate: [321, 123], _sandboxId: first.id })
        const positions = []
        for (let i = 0; i < 4; i++) {
          const result = await callTool(port, key, "computer", { action: "cursor_position", _sandboxId: first.id })
          positions.push(result.content[0]!.text)
        }
        expect(positions).toEqual(Array(4).fill("The pointer is at (321, 123)."))
        expect(displayServersOf(first.folder)).toHaveLength(1)

        // A desktop's first uses arrive at both workers at once: one display server starts.
        const second = await createDesktop()
        const shots = await Promise.all(Array.from({ length: 6 }, () => screenshot(port, key, second.id)))
        expect(shots.map((png) => `${png.width}x${png.height}`)).toEqual(Array(6).fill("1024x768"))
        expect(displayServersOf(second.folder)).toHaveLength(1)
        expect(displayServersOf(first.folder)).toHaveLength(1)

        // The worker running a desktop dies: the desktop ends with it, and the next use starts another.
        const workers = childrenOf(served.primary.pid!)
        let owner = displayServersOf(second.folder)[0]
        while (owner !== undefined && !workers.includes(owner)) owner = parentOf(owner)
        expect(owner).toBeTypeOf("number")
        process.kill(owner!, "SIGKILL")
        await until(
          served,
          () => displayServersOf(second.folder).length === 0,
          10_000,
          "desktop ending with its worker"
        )
        await listeningWorkers(served, 3)
        for (let i = 0; i < 4; i++) await screenshot(port, key, second.id)
        expect(displayServersOf(second.folder)).toHaveLength(1)

        served.primary.kill("SIGTERM")
        expect(await served.exited).toBe(0)
        expect([...displayServersOf(first.folder), ...displayServersOf(second.folder)]).toEqual([])
      } finally {
        served.primary.kill("SIGKILL")
      }
    }
  )
})
