import { execFile, spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { describe, expect, it } from "vitest"
import { startUpstream } from "../../src/demo/upstream/server.ts"
import { freePort } from "../support/freePort.ts"
import { startGateway } from "../support/gateway.ts"
import { chatBody } from "../support/http.ts"

const root = resolve(import.meta.dirname, "../..")
const node = join(root, "node_modules/.bin/node")

/** One POST on a new connection (no keep-alive), so a stopped server refuses the next one outright. */
const postOnce = (url: string, body: string, key: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      agent: false,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", connection: "close" }
    }, (res) => {
      res.resume()
      res.once("end", () => resolve(res.statusCode ?? 0))
    })
    req.once("error", reject)
    req.end(body)
  })

const freshDatabase = () => join(mkdtempSync(join(tmpdir(), "parley-ledger-")), "parley.db")

const rowsIn = (file: string): number => {
  const db = new DatabaseSync(file)
  try {
    return Number((db.prepare("SELECT COUNT(*) AS n FROM usage_events").get() as { n: number }).n)
  } finally {
    db.close()
  }
}

describe("the usage ledger at shutdown", () => {
  it("stopping the gateway writes the rows still buffered and those of requests it let finish", async () => {
    const file = freshDatabase()
    const gateway = await startGateway({ databaseUrl: `sqlite:${file}` })
    const { secret } = await gateway.createKey()
    // Connections not kept alive: the stop then waits for no idle client, and the writer gets no tick to write in.
    const chat = (body: unknown) => postOnce(`${gateway.url}/api/v1/chat`, JSON.stringify(body), secret)

    gateway.upstream.respondWith(() => ({ type: "text", text: "ok" }))
    const done = await Promise.all(Array.from({ length: 20 }, () => chat(chatBody())))
    // Five more still streaming when the stop begins: the server lets them finish first.
    gateway.upstream.respondWith(() => ({ type: "text", text: "a b c d e", chunkDelayMs: 60 }))
    const running = Array.from({ length: 5 }, () => chat(chatBody({ stream: true })))
    while (gateway.upstream.requests.length < 25) await new Promise((resolve) => setTimeout(resolve, 5))
    await gateway.close()

    expect([...done, ...await Promise.all(running)].every((status) => status === 200)).toBe(true)
    expect(rowsIn(file)).toBe(25)
  })

  it("SIGTERM of a real gateway process under load loses no row", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-sigterm-"))
    const upstream = await startUpstream({ apiKey: "sk-upstream" })
    upstream.respondWith(() => ({ type: "text", text: "fine, thanks", delayMs: 20 }))
    const config = join(dir, "parley.config.json")
    writeFileSync(
      config,
      JSON.stringify({
        providers: [{
          id: "test",
          type: "openai-compatible",
          baseURL: upstream.url,
          apiKey: "sk-upstream",
          models: [{ id: "m1", name: "M1", categories: ["chat"] }]
        }]
      })
    )
    const env = {
      ...process.env,
      DATABASE_URL: `sqlite:${join(dir, "parley.db")}`,
      PARLEY_CONFIG: config,
      PORT: String(await freePort()),
      LOG_FORMAT: "json"
    }
    const created = await new Promise<string>((resolve, reject) =>
      execFile(
        node,
        ["src/cli/main.ts", "keys", "create", "--name", "load", "--models", "*", "--tools", "*", "--json"],
        { cwd: root, env },
        (error, stdout) => error === null ? resolve(stdout) : reject(error)
      )
    )
    const { key } = JSON.parse(created) as { key: string }

    const child = spawn(node, ["src/main.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    let output = ""
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (data: Buffer) => {
        output += data.toString()
        const found = /Listening on (http:\/\/[^\s"]+)/.exec(output)
        if (found !== null) resolve(found[1]!)
      }
      child.stdout.on("data", onData)
      child.stderr.on("data", onData)
      void exited.then(() => reject(new Error(`the gateway exited: ${output}`)))
    })

    // Twenty clients send chats back to back, each on a connection of its own, until the server refuses them.
    let answered = 0
    let stopping = false
    const client = async () => {
      for (;;) {
        const status = await postOnce(`${url}/api/v1/chat`, JSON.stringify(chatBody()), key).catch((error) => {
          // Refused, or reset while still in the listen backlog when the listener closed: never read, so no row.
          const code = (error as { code?: string }).code
          if (stopping && (code === "ECONNREFUSED" || code === "ECONNRESET")) return undefined
          throw error
        })
        if (status === undefined) return
        expect(status).toBe(200)
        answered++
      }
    }
    const clients = Array.from({ length: 20 }, client)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    stopping = true
    child.kill("SIGTERM")
    await Promise.all(clients)
    // It stopped by itself (a process killed by the signal has no exit code, and would have written nothing more).
    expect(await exited).toEqual(expect.any(Number))
    await upstream.close()

    expect(answered).toBeGreaterThan(20)
    expect(rowsIn(join(dir, "parley.db"))).toBe(answered)
  }, 60_000)
})
