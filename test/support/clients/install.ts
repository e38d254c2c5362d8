import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * Codex CLI and Claude Code as test/clients/ runs them. They are not the
 * project's dependencies: their native binaries are 800 MB that `npm ci &&
 * npm start` would download for nothing. The tests install the versions
 * pinned in agents/package-lock.json themselves, on first use, with `npm ci`
 * into node_modules/.cache/parley-agent-clients/<hash of the lock>/, and reuse
 * that folder after (a new pin is a new folder). Test files run in parallel
 * workers: a lock directory lets one of them install while the others wait.
 */

const root = fileURLToPath(new URL("../../../", import.meta.url))
const manifest = fileURLToPath(new URL("agents/", import.meta.url))
const lockfile = readFileSync(join(manifest, "package-lock.json"))
export const AGENT_CLIENTS_CACHE = join(root, "node_modules", ".cache", "parley-agent-clients")
const pinned = (name: string): string => JSON.parse(lockfile.toString()).packages[`node_modules/${name}`].version
const folder = join(AGENT_CLIENTS_CACHE, createHash("sha256").update(lockfile).digest("hex").slice(0, 16))
/** Written last: a folder without it is an install that did not finish. */
const marker = join(folder, ".installed")

/** The longest a first install may take (about 250 MB to download); a test file's beforeAll waits this long. */
export const INSTALL_TIMEOUT_MS = 600_000

const bins = {
  claude: join(folder, "node_modules", ".bin", "claude"),
  codex: join(folder, "node_modules", ".bin", "codex")
} as const

/**
 * npm's own settings pass on (the registry, a proxy, the cache), not those an
 * outer `npm test` sets for its script (`npm_config_local_prefix` would
 * install into the project).
 */
const npmEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) =>
      !name.startsWith("npm_") ||
      /^npm_config_(registry|cache|userconfig|cafile|ca|proxy|https_proxy|noproxy|strict_ssl)$/.test(name)
    )
  )

const npmCi = (cwd: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(
      "npm",
      ["ci", "--no-audit", "--no-fund", "--loglevel=error", "--strict-allow-scripts"],
      { cwd, env: npmEnv(), stdio: ["ignore", "pipe", "pipe"] }
    )
    let output = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.once("error", reject)
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(
        new Error(
          `Installing the agent clients failed (npm ci in ${cwd} exited ${code}); it needs the npm registry.\n${output}`
        )
      ))
  })

const install = async () => {
  process.stderr.write(
    `Installing Codex CLI ${pinned("@openai/codex")} and Claude Code ${
      pinned("@anthropic-ai/claude-code")
    } for the client tests, once, into ${folder}…\n`
  )
  // Under the lock no one else installs: a staging folder left here is a killed install's (800 MB).
  for (const name of await readdir(AGENT_CLIENTS_CACHE)) {
    if (name.startsWith(`${basename(folder)}.`) && name.endsWith(".tmp")) {
      await rm(join(AGENT_CLIENTS_CACHE, name), { recursive: true, force: true })
    }
  }
  const staging = `${folder}.${process.pid}.tmp`
  await mkdir(staging, { recursive: true })
  for (const file of ["package.json", "package-lock.json"]) await copyFile(join(manifest, file), join(staging, file))
  await npmCi(staging)
  await writeFile(join(staging, ".installed"), "")
  // An unfinished folder of an earlier run (no marker) gives way to this one.
  await rm(folder, { recursive: true, force: true })
  await rename(staging, folder)
}

/** Whether the lock's holder is gone: its process ended, or it never wrote its pid within a minute. */
const stale = async (lock: string): Promise<boolean> => {
  const pid = Number(await readFile(join(lock, "pid"), "utf8").catch(() => ""))
  if (pid > 0) {
    try {
      process.kill(pid, 0)
      return false
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH"
    }
  }
  const since = await stat(lock).then((info) => Date.now() - info.mtimeMs, () => 0)
  return since > 60_000
}

const ensureInstalled = async () => {
  const lock = `${folder}.lock`
  await mkdir(AGENT_CLIENTS_CACHE, { recursive: true })
  while (!existsSync(marker)) {
    try {
      await mkdir(lock)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      if (await stale(lock)) await rm(lock, { recursive: true, force: true })
      else await new Promise((done) => setTimeout(done, 500))
      continue
    }
    try {
      await writeFile(join(lock, "pid"), String(process.pid))
      if (!existsSync(marker)) await install()
    } finally {
      await rm(lock, { recursive: true, force: true })
    }
  }
}

let installed: Promise<void> | undefined

/** The path of a client's binary, installed first if it is not yet (the first call of a process waits for it). */
export const agentClient = async (name: keyof typeof bins): Promise<string> => {
  installed ??= ensureInstalled().catch((error) => {
    installed = undefined
    throw error
  })
  await installed
  return bins[name]
}
