import { Context, Effect, Layer } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { build, bundledFile, root, startFlags } from "../scripts/build.ts"
import { ApiKeys } from "../src/auth/ApiKeys.ts"
import { startUpstream } from "../src/demo/upstream/server.ts"
import type { Upstream } from "../src/demo/upstream/types.ts"
import * as Database from "../src/store/Database.ts"
import { freePort } from "./support/freePort.ts"
import { bearer, chatBody, postJson } from "./support/http.ts"

/**
 * The production bundle as `npm start` runs it (the start script's Node
 * flags, configured from the environment and a config file), built into a
 * folder of its own and started against the scripted upstream.
 */
const UPSTREAM_KEY = "sk-build-test-upstream"

const createKey = (databaseUrl: string) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const services = yield* Layer.build(ApiKeys.layer.pipe(Layer.provide(Database.layerFromUrl(databaseUrl))))
    const { secret } = yield* Context.get(services, ApiKeys).create({
      name: "build-test",
      allowedModels: ["*"],
      allowedTools: ["*"]
    })
    return secret
  })))

const waitForHealth = async (url: string, service: ChildProcess, output: () => string): Promise<Response> => {
  const deadline = Date.now() + 8_000
  for (;;) {
    if (service.exitCode !== null) throw new Error(`the bundled service exited with ${service.exitCode}:\n${output()}`)
    const response = await fetch(`${url}/health`).catch(() => undefined)
    if (response !== undefined) return response
    if (Date.now() > deadline) throw new Error(`the bundled service did not answer /health:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe("the production bundle", () => {
  const cache = join(root, "node_modules", ".cache")
  mkdirSync(cache, { recursive: true })
  // Inside the project: the bundle loads playwright-core and the tokenizer encodings from node_modules.
  const outdir = mkdtempSync(join(cache, "parley-build-test-"))
  const data = mkdtempSync(join(tmpdir(), "parley-build-test-"))
  let upstream: Upstream
  let service: ChildProcess
  let url: string
  let secret: string
  let output = ""

  beforeAll(async () => {
    const [started, port] = await Promise.all([startUpstream({ apiKey: UPSTREAM_KEY }), freePort(), build(outdir)])
    upstream = started
    const databaseUrl = `sqlite:${join(data, "parley.db")}`
    const config = join(data, "parley.config.json")
    writeFileSync(
      config,
      JSON.stringify({
        providers: [{
          id: "test",
          type: "openai-compatible",
          baseURL: upstream.url,
          apiKey: UPSTREAM_KEY,
          models: [{ id: "m1", name: "Model One", categories: ["chat"], contextWindow: 128_000 }]
        }]
      })
    )
    secret = await createKey(databaseUrl)
    service = spawn(process.execPath, [...startFlags(), bundledFile(outdir, "src/main.ts")], {
      cwd: data,
      env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), DATABASE_URL: databaseUrl, PARLEY_CONFIG: config },
      stdio: ["ignore", "pipe", "pipe"]
    })
    service.stdout?.on("data", (chunk) => (output += chunk))
    service.stderr?.on("data", (chunk) => (output += chunk))
    url = `http://127.0.0.1:${port}`
  })

  afterAll(async () => {
    if (service !== undefined && service.exitCode === null) {
      service.kill("SIGTERM")
      await once(service, "exit")
    }
    await upstream?.close()
    rmSync(outdir, { recursive: true, force: true })
    rmSync(data, { recursive: true, force: true })
  })

  it("starts with the start script's flags and answers /health", async () => {
    const health = await waitForHealth(url, service, () => output)
    expect(health.status).toBe(200)
  })

  it("answers a chat, pruned with a tokenizer encoding the bundle loads on first use", async () => {
    upstream.enqueue({ type: "text", text: "Bundled and well" })
    const response = await postJson(
      `${url}/api/v1/chat`,
      chatBody({ prune: true, pruneOptions: { targetTokens: 1_000 } }),
      bearer(secret)
    )
    const body = await response.json()
    expect(response.status, JSON.stringify(body)).toBe(200)
    expect(body.data.messages.at(-1).parts).toContainEqual({ type: "text", text: "Bundled and well", state: "done" })
  })

  /** Runs the bundle as `npm start` does, from `cwd`, with only these variables of the provider kind. */
  const startBundle = (env: Record<string, string>, cwd: string) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([name]) =>
        !/^(OPENAI|ANTHROPIC|GOOGLE_GENERATIVE_AI|LOCAL_LLM|PARLEY|PORT|HOST)/.test(name)
      )
    )
    return spawn(process.execPath, [...startFlags(), bundledFile(outdir, "src/main.ts")], {
      cwd,
      env: { ...clean, DATABASE_URL: "sqlite::memory:", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
  }

  const collect = (child: ChildProcess) => {
    let text = ""
    child.stdout?.on("data", (chunk) => (text += chunk))
    child.stderr?.on("data", (chunk) => (text += chunk))
    return () => text
  }

  it("names every configuration problem at once, one line each, and exits 1 without a stack trace", async () => {
    // Three providers whose keys are in variables nobody set, and a bad PORT.
    const config = join(data, "keys-unset.config.json")
    const provider = (id: string, type: string) => ({ id, type, apiKeyEnv: `${id.toUpperCase()}_API_KEY` })
    writeFileSync(
      config,
      JSON.stringify({
        providers: [
          { ...provider("local_llm", "openai-compatible"), baseURL: "http://127.0.0.1:9/v1", models: [] },
          provider("openai", "openai"),
          provider("anthropic", "anthropic")
        ]
      })
    )
    const child = startBundle({ PARLEY_CONFIG: config, PORT: "http" }, data)
    const text = collect(child)
    const [code] = await once(child, "exit")
    expect(code, text()).toBe(1)
    const lines = text().trim().split("\n")
    expect(lines[0]).toBe("parley cannot start: the configuration has 4 problems:")
    expect(lines.slice(1).map((line) => line.replace(/^ {2}- (\S+?): .*/, "$1"))).toEqual([
      "PORT",
      ...["0", "1", "2"].map(() => config)
    ])
    for (const variable of ["LOCAL_LLM_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"]) {
      expect(text()).toContain(variable)
    }
    expect(text()).not.toMatch(/^\s+at /m)
  })

  it("says what to configure when no provider is, and serves", async () => {
    const port = await freePort()
    const child = startBundle({ PORT: String(port) }, mkdtempSync(join(tmpdir(), "parley-build-empty-")))
    const text = collect(child)
    try {
      expect((await waitForHealth(`http://127.0.0.1:${port}`, child, text)).status).toBe(200)
      expect(text()).toContain("no model provider is configured")
      expect(text()).toContain("npx parley demo")
    } finally {
      child.kill("SIGTERM")
      await once(child, "exit")
    }
  })

  it("serves the console it embedded, with no build tool at run time", async () => {
    const page = await fetch(`${url}/console`)
    expect(page.status).toBe(200)
    const names = [...(await page.text()).matchAll(/\/console\/assets\/([^"]+)"/g)].map((match) => match[1]!)
    expect(names).toHaveLength(3)
    for (const name of names) {
      const asset = await fetch(`${url}/console/assets/${name}`)
      expect(asset.status).toBe(200)
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    }
    // The module that builds the console from the sources was replaced by what the build made.
    const bundled = readdirSync(outdir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"))
    for (const file of bundled) expect(readFileSync(join(outdir, file), "utf8")).not.toContain("consoleBuild")
  })

  it("stops on SIGTERM after draining, with exit code 0 (docs/DESIGN.md §8)", async () => {
    service.kill("SIGTERM")
    const [code] = await once(service, "exit")
    expect(code, output).toBe(0)
  })

  it("leaves nothing listening when a supervisor stops `npm start` (SIGTERM to npm)", async () => {
    // A package whose start script is parley's own, over this bundle: npm runs it as it runs parley's.
    const start = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
      .scripts["start"]
    const pkg = mkdtempSync(join(cache, "parley-npm-start-"))
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({ name: "npm-start-test", private: true, scripts: { start } })
    )
    symlinkSync(outdir, join(pkg, "dist"))
    const port = await freePort()
    const npm = spawn("npm", ["start", "--silent"], {
      cwd: pkg,
      env: {
        ...process.env,
        // As `npm start` in the project: Node 24 from node_modules/.bin.
        PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}`,
        HOST: "127.0.0.1",
        PORT: String(port),
        DATABASE_URL: "sqlite::memory:"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const text = collect(npm)
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, npm, text)
      npm.kill("SIGTERM")
      await once(npm, "exit")
      const deadline = Date.now() + 5_000
      let answering = true
      while (answering && Date.now() < deadline) {
        answering = await fetch(`http://127.0.0.1:${port}/health`).then(() => true, () => false)
        if (answering) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(answering, text()).toBe(false)
    } finally {
      if (npm.exitCode === null) npm.kill("SIGKILL")
      rmSync(pkg, { recursive: true, force: true })
    }
  })
})
