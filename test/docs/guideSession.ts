import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import {
  chmodSync,
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { homedir, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { StringDecoder } from "node:string_decoder"
import type { GuideBlock } from "./guideBlocks.ts"

export const root = resolve(import.meta.dirname, "../..")

const BLOCK_MS = 120_000

/**
 * A fresh copy of the checkout as a clone would have it: the files git
 * tracks or would add (so the tests see uncommitted work too), and the
 * installed node_modules linked in, since `npm ci` is the clone's first step.
 */
const freshCopy = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "parley-guide-"))
  // A sandbox's user must pass through the folders above its workspace.
  chmodSync(dir, 0o755)
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" })
  for (const file of files.split("\0").filter((name) => name !== "")) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    cpSync(join(root, file), join(dir, file))
  }
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"))
  return dir
}

/**
 * Every curl tells the test its status on standard error, after what the
 * command's own `-w` writes, unless it fails on errors itself (`-f`).
 */
const PRELUDE = [
  "set -eo pipefail",
  "curl() {",
  "  local arg args=() own=0 format=0",
  "  for arg in \"$@\"; do",
  "    case \"$arg\" in --fail|--fail-with-body|-[a-zA-Z]*f*) command curl \"$@\"; return;; esac",
  "  done",
  "  for arg in \"$@\"; do",
  "    if [ $format = 1 ]; then args+=(\"$arg%{stderr}@@status %{http_code}\\n\"); format=0; continue; fi",
  "    case \"$arg\" in -w|--write-out) own=1; format=1;; esac",
  "    args+=(\"$arg\")",
  "  done",
  "  [ $own = 1 ] || args=(--write-out '%{stderr}@@status %{http_code}\\n' \"${args[@]}\")",
  "  command curl \"${args[@]}\"",
  "}",
  ""
].join("\n")

export interface BlockRun {
  readonly output: string
  readonly statuses: ReadonlyArray<number>
}

/** A failed block: its output so far says why. */
export class BlockFailed extends Error {}

/** What has been written to the file at `path` so far, read on each call from where the last call stopped. */
const follow = (path: string) => {
  const fd = openSync(path, "r")
  const decoder = new StringDecoder("utf8")
  const buffer = Buffer.alloc(65_536)
  let text = ""
  return {
    read: () => {
      for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) text += decoder.write(buffer.subarray(0, n))
      return text
    },
    close: () => closeSync(fd)
  }
}

/**
 * One bash session in a fresh copy, as a reader pasting a guide's blocks into
 * one terminal: variables and background jobs carry over from block to block.
 * The environment is the machine's, less parley's, the providers' and npm's
 * own variables, with a HOME and a TMPDIR of the session's own, as on a
 * reader's machine: what the agent clients keep in HOME stays in the session,
 * and a folder of the copy is not under TMPDIR (Codex refuses to set up its
 * sandbox's helpers there). npm and the tools keep the machine's caches
 * (npm's, and ~/.cache, where dprint keeps its compiled plugin) and npm its
 * settings, so what was fetched or compiled once is not again.
 */
export const openSession = () => {
  const cwd = freshCopy()
  const scripts = mkdtempSync(join(tmpdir(), "parley-guide-blocks-"))
  const [home, temp] = [join(scripts, "home"), join(scripts, "tmp")]
  for (const dir of [home, temp]) mkdirSync(dir)
  // What a command puts in TMPDIR may be a sandbox's workspace, whose user passes through the folders above it.
  chmodSync(scripts, 0o755)
  chmodSync(temp, 0o1777)
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([name]) =>
        !/^(PARLEY_|OPENAI|ANTHROPIC|CLAUDE|CODEX_|DATABASE_URL|REDIS_URL|npm_|LOG_|OTEL_|PORT$|HOST$)/.test(name)
      )
    ),
    HOME: home,
    TMPDIR: temp,
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
    npm_config_userconfig: process.env.npm_config_userconfig ?? join(homedir(), ".npmrc"),
    XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache")
  }
  // The shell writes to files, not pipes: Node in a guide's background job (parley, the scripted provider) makes
  // the pipe it inherits non-blocking once it writes, and the shell's next write to a full pipe then fails
  // (EAGAIN: `echo` answers 1) whenever this process reads slower than the guide writes, on a loaded machine.
  const [outPath, errPath] = [join(scripts, "stdout"), join(scripts, "stderr")]
  const [outFd, errFd] = [openSync(outPath, "w"), openSync(errPath, "w")]
  const bash: ChildProcess = spawn("bash", ["--noprofile", "--norc"], {
    cwd,
    env,
    detached: true,
    stdio: ["pipe", outFd, errFd]
  })
  closeSync(outFd)
  closeSync(errFd)
  const [stdout, stderr] = [follow(outPath), follow(errPath)]
  let exited: number | null | undefined
  const listeners = new Set<() => void>()
  const changed = () => listeners.forEach((listener) => listener())
  // A file tells no one it grew: a running block looks every 20 ms.
  const looking = setInterval(changed, 20)
  bash.on("exit", (code) => (exited = code, changed()))
  bash.stdin!.write(PRELUDE)
  let count = 0

  const run = (block: GuideBlock, where: string): Promise<BlockRun> => {
    const n = ++count
    const file = join(scripts, `${n}.sh`)
    writeFileSync(file, block.text + "\n")
    const [outStart, errStart] = [stdout.read().length, stderr.read().length]
    const done = `@@done ${n} `
    // A block reads no input: the shell's own is this process's pipe of commands, which a command that reads
    // what is not a terminal (`codex exec`, `claude -p`) would wait on. A reader's terminal gives them none either.
    bash.stdin!.write(`source ${file} </dev/null; __rc=$?; echo "${done}$__rc"; echo "${done}$__rc" >&2\n`)
    return new Promise((resolveRun, reject) => {
      const output = () => {
        const out = stdout.read().slice(outStart).split(done)[0]!
        const err = stderr.read().slice(errStart).split(done)[0]!
        return { text: `${out}\n${err.replace(/^@@status \d+\n/gm, "")}`.trim(), err }
      }
      const finish = (error?: string) => {
        clearTimeout(timer)
        listeners.delete(check)
        const { text, err } = output()
        if (error !== undefined) return reject(new BlockFailed(`${where}: ${error}\n--- its output ---\n${text}`))
        resolveRun({ output: text, statuses: [...err.matchAll(/^@@status (\d+)$/gm)].map((m) => Number(m[1])) })
      }
      const check = () => {
        if (stdout.read().includes(done, outStart) && stderr.read().includes(done, errStart)) return finish()
        if (exited !== undefined) finish(`a command failed (the shell exited with ${exited})`)
      }
      const timer = setTimeout(() => finish(`still running after ${BLOCK_MS / 1000} s`), BLOCK_MS)
      listeners.add(check)
      check()
    })
  }

  /**
   * Ends the shell and whatever it left running (its process group: background jobs included): a TERM, then a
   * KILL to what is still there after 3 s.
   */
  const close = async () => {
    /** Whether the signal reached a process of the group (signal 0 only looks). */
    const signal = (name: NodeJS.Signals | 0) => {
      try {
        process.kill(-bash.pid!, name)
        return true
      } catch {
        return false
      }
    }
    signal("SIGTERM")
    for (const end = Date.now() + 3_000; Date.now() < end && signal(0);) {
      await new Promise((done) => setTimeout(done, 50))
    }
    signal("SIGKILL")
    clearInterval(looking)
    stdout.close()
    stderr.close()
    // Each session's copy of the checkout is ~20 MB: left behind, a machine's /tmp fills run after run.
    for (const dir of [cwd, scripts]) rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  }

  return { cwd, run, close }
}
