import cluster, { type Worker } from "node:cluster"
import { availableParallelism } from "node:os"

/** `--workers N|auto`: a count, or one per core; undefined when the text is neither. */
export const parseWorkers = (text: string): number | undefined => {
  if (text === "auto") return availableParallelism()
  return /^[1-9]\d{0,2}$/.test(text) ? Number(text) : undefined
}

/** This process was forked by `superviseWorkers`: it is one gateway among several on the port. */
export const isWorker = (): boolean => cluster.isWorker

// A worker that dies is replaced after a pause that doubles while its slot keeps dying, so a
// worker that fails at once does not spin a core; one that ran a while starts the pause afresh.
const FIRST_PAUSE_MS = 100
const LONGEST_PAUSE_MS = 10_000
const STABLE_AFTER_MS = 30_000

// The exit codes of a worker stopped on request: done (0) or interrupted by the signal (130).
const stoppedCleanly = (code: number | null) => code === 0 || code === 130

interface Slot {
  readonly index: number
  readonly startedAt: number
  listening: boolean
}

/**
 * `parley serve --workers N`: runs `count` copies of this very command as
 * `node:cluster` workers on one port (docs/DESIGN.md §8), each a full gateway.
 * The primary holds the listening socket and hands connections to the workers
 * in turn; it serves nothing itself and loads none of the gateway.
 *
 * A worker that dies after it listened is replaced (with a growing pause); a
 * worker that exits before it ever listened failed to start (its line says
 * why: the port, the database, the configuration), which another try would
 * not mend, so everything stops with exit code 1. SIGTERM and SIGINT are
 * passed to every worker and the primary exits once all have, 0 when each
 * stopped cleanly; SIGHUP is passed on for the workers to reload.
 * Resolves with the exit code. Plain Node: the primary loads no Effect runtime.
 */
export const superviseWorkers = (
  count: number,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)
): Promise<number> =>
  new Promise((resolve) => {
    const slots = new Map<Worker, Slot>()
    const pauses = new Map<number, number>()
    const pending = new Set<NodeJS.Timeout>()
    let stopping = false
    let exitCode = 0

    const start = (index: number) => {
      const slot: Slot = { index, startedAt: Date.now(), listening: false }
      const worker = cluster.fork()
      slots.set(worker, slot)
      worker.once("listening", () => {
        slot.listening = true
      })
    }

    const stop = (signal: NodeJS.Signals) => {
      stopping = true
      for (const timer of pending) clearTimeout(timer)
      pending.clear()
      for (const worker of slots.keys()) worker.process.kill(signal)
      if (slots.size === 0) finish()
    }

    const finish = () => {
      for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.removeListener(signal, onSignal[signal])
      cluster.removeListener("exit", onExit)
      resolve(exitCode)
    }

    const replace = (slot: Slot, worker: Worker, reason: string) => {
      const lived = Date.now() - slot.startedAt
      const previous = pauses.get(slot.index)
      const pause = previous === undefined || lived > STABLE_AFTER_MS
        ? FIRST_PAUSE_MS
        : Math.min(previous * 2, LONGEST_PAUSE_MS)
      pauses.set(slot.index, pause)
      log(`parley: worker ${worker.process.pid} ${reason}; starting another in ${pause} ms`)
      const timer = setTimeout(() => {
        pending.delete(timer)
        if (!stopping) start(slot.index)
      }, pause)
      pending.add(timer)
    }

    const onExit = (worker: Worker, code: number | null, signal: string | null) => {
      const slot = slots.get(worker)
      if (slot === undefined) return
      slots.delete(worker)
      const reason = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`
      if (stopping) {
        if (!stoppedCleanly(code)) exitCode = 1
        if (slots.size === 0) finish()
      } else if (!slot.listening) {
        log(`parley: worker ${worker.process.pid} ${reason} before it listened; stopping the others`)
        exitCode = 1
        stop("SIGTERM")
      } else {
        replace(slot, worker, reason)
      }
    }

    const onSignal = {
      SIGTERM: () => stop("SIGTERM"),
      SIGINT: () => stop("SIGINT"),
      SIGHUP: () => {
        for (const worker of slots.keys()) worker.process.kill("SIGHUP")
      }
    }
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, onSignal[signal])
    cluster.on("exit", onExit)
    for (let index = 0; index < count; index++) start(index)
  })

/** What to say when `--workers` is neither a count nor `auto`. */
export const badWorkers = (text: string) => `--workers takes a number of processes (1-999) or auto, not "${text}"`
