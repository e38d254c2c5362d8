import { Effect, Exit, Fiber } from "effect"
import { IncomingMessage, ServerResponse } from "node:http"
import { Socket } from "node:net"
import { describe, expect, it } from "vitest"
import { ServerShuttingDown } from "../../src/http/requestErrors.ts"
import { Drain } from "../../src/http/ServerDrain.ts"

const response = () => new ServerResponse(new IncomingMessage(new Socket()))

/** docs/DESIGN.md §8: what the server's drain tells the requests when the grace is over. */
describe("Drain", () => {
  it("fails `cancelled` with ServerShuttingDown for a request waiting on it, and at once for a later one", async () => {
    const drain = new Drain()
    const waiting = Effect.runFork(drain.cancelled)
    await Effect.runPromise(Effect.yieldNow)
    expect(waiting.pollUnsafe()).toBeUndefined()
    drain.cancelAll()
    expect(await Effect.runPromise(Fiber.await(waiting))).toEqual(Exit.fail(new ServerShuttingDown()))
    expect(await Effect.runPromiseExit(drain.cancelled)).toEqual(Exit.fail(new ServerShuttingDown()))
  })

  it("cancels the running requests, and one tracked after the grace at once", () => {
    const drain = new Drain()
    const cancelled: Array<string> = []
    drain.track(response(), () => cancelled.push("running"))
    expect(cancelled).toEqual([])
    drain.cancelAll()
    expect(cancelled).toEqual(["running"])
    drain.track(response(), () => cancelled.push("late"))
    expect(cancelled).toEqual(["running", "late"])
  })
})
