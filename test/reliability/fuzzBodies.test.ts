import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectHealthy } from "../support/fuzz/answerCheck.ts"
import { chatDoors } from "../support/fuzz/chatDoors.ts"
import { type FuzzProcess, startFuzzProcess } from "../support/fuzz/fuzzProcess.ts"
import { record } from "../support/reliability/record.ts"
import { sized } from "../support/reliability/size.ts"

/** ≥ 100,000 bodies over the four chat doors at full size (RELIABILITY_SIZE=full), 5,000 at CI size (issue 32 part 5). */
const RUNS = sized(5_000, 100_000)
const PER_DOOR = RUNS / chatDoors.length
/** The gateway must be alive and answer /health after each batch of this many bodies. */
const BATCH = 100
/** `FUZZ_SEED` replays a run; else each run fuzzes anew. */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000_000)

let gateway: FuzzProcess

beforeAll(async () => {
  gateway = await startFuzzProcess()
})
afterAll(() => gateway?.stop())

describe(`${RUNS.toLocaleString("en")} fuzzed bodies over the four chat doors, against the gateway as a process`, () => {
  it(
    "answer 200 when valid and a documented 4xx when not (never a 2xx, never a 5xx), with headers of safe tokens; the process never exits and answers /health after every batch",
    async ({ task }) => {
      const statuses: Record<string, Record<number, number>> = {}
      let batches = 0
      const started = Date.now()
      record(task, `${RUNS.toLocaleString("en")} bodies, ${PER_DOOR.toLocaleString("en")} a door`, { seed: SEED })
      for (const door of chatDoors) {
        const counts: Record<number, number> = statuses[door.name] = {}
        for (let done = 0; done < PER_DOOR; done += BATCH) {
          const seed = SEED + batches
          try {
            for (const status of await door.post(gateway.url, gateway.secret, Math.min(BATCH, PER_DOOR - done), seed)) {
              counts[status] = (counts[status] ?? 0) + 1
            }
            expect(gateway.exit(), "the gateway process exited").toBeUndefined()
            await expectHealthy(gateway.url)
          } catch (error) {
            throw new Error(
              `${door.name}, batch seed ${seed} (FUZZ_SEED=${SEED}): ${String(error)}\n${
                gateway.output().slice(-4_000)
              }`,
              { cause: error }
            )
          }
          batches++
        }
      }
      const answers = Object.values(statuses).flatMap((counts) => Object.entries(counts))
      const total = (predicate: (status: number) => boolean) =>
        answers.reduce((sum, [status, count]) => predicate(Number(status)) ? sum + count : sum, 0)
      record(task, `${RUNS.toLocaleString("en")} bodies, ${PER_DOOR.toLocaleString("en")} a door`, {
        "5xx": total((status) => status >= 500),
        "process exits": gateway.exit() === undefined ? 0 : 1,
        "health checks": batches,
        seconds: Math.round((Date.now() - started) / 1000),
        ...Object.fromEntries(
          Object.entries(statuses).map(([door, counts]) => [
            door,
            Object.entries(counts).map(([status, count]) => `${status}×${count}`).join(" ")
          ])
        )
      })
      expect(total((status) => status >= 500)).toBe(0)
    },
    // About 10 ms a body on 2 cores, with room to spare.
    RUNS * 40
  )
})
